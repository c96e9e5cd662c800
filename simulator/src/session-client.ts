import { Value } from '@sinclair/typebox/value';
import type { TSchema, Static } from '@sinclair/typebox';
import {
  CreatedEvidence,
  NON_FIELD_ERRORS,
  SESSION_TOKEN_SCHEME,
  SessionStatus,
  SimulatorSession,
  type CompleteSessionBody,
  type EvidenceSubmission,
  type FieldErrors,
} from '@portal/contract';

/** An answer of the API other than the one expected, with what the server said about it. */
export class SessionApiError extends Error {
  override name = 'SessionApiError';
  constructor(
    /** HTTP status; 0 when the API could not be reached or answered something unreadable. */
    readonly status: number,
    /** The server's `detail`, if it sent one. */
    readonly detail: string | null,
    /** Field errors of a 400 answer (`{field: [messages]}`). */
    readonly fieldErrors: FieldErrors = {},
  ) {
    super(SessionApiError.describe(status, detail, fieldErrors));
  }

  private static describe(status: number, detail: string | null, fieldErrors: FieldErrors): string {
    const fields = Object.entries(fieldErrors).map(([field, messages]) =>
      field === NON_FIELD_ERRORS ? messages.join(' ') : `${field}: ${messages.join(' ')}`,
    );
    const text = [detail, ...fields].filter(Boolean).join('; ');
    return status === 0 ? `Simulator API unavailable: ${text}` : `Simulator API answered ${status}${text ? `: ${text}` : ''}`;
  }
}

export interface SessionClientOptions {
  /** Origin of the API, e.g. http://localhost:3000 (no /api/v1). */
  apiUrl: string;
  /** The session token from the launch link. */
  token: string;
  /** Per-request time limit, ms. */
  timeoutMs?: number;
}

export interface SessionClient {
  /** Starts (or resumes) the session: status becomes in_progress. */
  join(): Promise<SimulatorSession>;
  /** Sends one piece of evidence with its PNG image (optional for lesson parts). */
  submitEvidence(submission: EvidenceSubmission, image?: Buffer | null): Promise<CreatedEvidence>;
  /** Finishes the session with optional report details. */
  complete(body?: CompleteSessionBody): Promise<SessionStatus>;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `{detail}` or `{field: [messages]}`, the two error shapes of the API (docs/architecture.md). */
function errorFromBody(status: number, body: unknown, text: string): SessionApiError {
  if (isRecord(body)) {
    const detail = typeof body.detail === 'string' ? body.detail : null;
    const fieldErrors: FieldErrors = {};
    for (const [key, value] of Object.entries(body)) {
      if (key === 'detail') continue;
      if (Array.isArray(value) && value.every((m) => typeof m === 'string')) fieldErrors[key] = value;
    }
    return new SessionApiError(status, detail, fieldErrors);
  }
  return new SessionApiError(status, text.trim().slice(0, 200) || null);
}

export function createSessionClient({ apiUrl, token, timeoutMs = 15_000 }: SessionClientOptions): SessionClient {
  const base = apiUrl.replace(/\/+$/, '');
  const authorization = `${SESSION_TOKEN_SCHEME} ${token}`;

  async function call<S extends TSchema>(path: string, schema: S, init: { body?: string | FormData; json?: boolean; expected: number }): Promise<Static<S>> {
    let response: Response;
    try {
      response = await fetch(`${base}/api/v1/simulator/session/${path}`, {
        method: 'POST',
        headers: init.json ? { authorization, 'content-type': 'application/json' } : { authorization },
        body: init.body,
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (error) {
      throw new SessionApiError(0, error instanceof Error ? error.message : String(error));
    }
    const text = await response.text();
    let body: unknown = null;
    try {
      body = text ? JSON.parse(text) : null;
    } catch {
      // Not JSON (a proxy's error page): reported as text below.
    }
    if (response.status !== init.expected) throw errorFromBody(response.status, body, text);
    if (!Value.Check(schema, body)) {
      throw new SessionApiError(0, `Unexpected answer from ${path}: ${text.slice(0, 200)}`);
    }
    return body;
  }

  return {
    join: () => call('join', SimulatorSession, { expected: 200 }),
    submitEvidence(submission, image) {
      const form = new FormData();
      form.append('data', JSON.stringify(submission));
      if (image) form.append('image', new Blob([image], { type: 'image/png' }), 'capture.png');
      return call('evidence', CreatedEvidence, { body: form, expected: 201 });
    },
    complete: (body = {}) => call('complete', SessionStatus, { body: JSON.stringify(body), json: true, expected: 200 }),
  };
}
