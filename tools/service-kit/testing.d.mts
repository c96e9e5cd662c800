import type { Writable } from 'node:stream';

export interface SecretRequest {
  path: string;
  /** The path with a query string of secret parameters (and one harmless `page=2`). */
  url: string;
  /** Authorization and Cookie headers with secret values. */
  headers: Record<string, string>;
  /** Every value that must not appear in a log line. */
  values: string[];
}
export function secretRequest(path?: string): SecretRequest;

export interface CapturedLog {
  stream: Writable;
  text(): string;
  lines(): Array<Record<string, unknown>>;
}
export function captureLog(): CapturedLog;
