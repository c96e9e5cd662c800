import type http from 'node:http';
import { performance } from 'node:perf_hooks';
import { Pool } from 'undici';
import type { Recorder } from './stats';

export interface HttpResponse {
  status: number;
  body: Buffer;
}

export interface RequestSpec {
  method: 'GET' | 'POST' | 'PUT';
  path: string;
  headers?: http.OutgoingHttpHeaders;
  body?: Buffer | string;
  /** Status codes that count as success. */
  expect: readonly number[];
}

/** Raised for an unexpected status so a learner's loop can stop and start over. */
export class UnexpectedResponse extends Error {
  override name = 'UnexpectedResponse';
  constructor(
    readonly route: string,
    readonly status: number,
    readonly body: string,
  ) {
    super(`${route} answered ${status}: ${body.slice(0, 200)}`);
  }
}

/** As the simulator's session client (`createSessionClient`'s `timeoutMs`). */
export const REQUEST_TIMEOUT_MS = 15_000;

/**
 * One HTTP/1.1 keep-alive pool to one server. undici's Pool rather than node:http's agent: the
 * generator shares two cores with the API and PostgreSQL, and undici costs about half as much CPU
 * per request (73 µs against 136 µs on this machine, measured with both against one node:http
 * server), which was time the API under test did not get (api/README, "Where the time goes").
 */
export class HttpTarget {
  private readonly pool: Pool;
  /** Requests sent and not yet answered; the run waits for these before it stops the servers. */
  inFlight = 0;

  constructor(
    readonly host: string,
    readonly port: number,
    /** Swapped between the calibration pass and the load. */
    public recorder: Recorder,
    connections: number,
  ) {
    this.pool = new Pool(`http://${host}:${port}`, {
      connections,
      // The whole request has REQUEST_TIMEOUT_MS (the signal below); these only must not be shorter.
      headersTimeout: REQUEST_TIMEOUT_MS + 1000,
      bodyTimeout: REQUEST_TIMEOUT_MS + 1000,
    });
  }

  private async send(spec: RequestSpec): Promise<HttpResponse> {
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(spec.headers ?? {})) {
      if (value !== undefined)
        headers[name] = Array.isArray(value) ? value.join(', ') : String(value);
    }
    try {
      const res = await this.pool.request({
        method: spec.method,
        path: spec.path,
        headers,
        body: spec.body ?? null,
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
      return { status: res.statusCode, body: Buffer.from(await res.body.arrayBuffer()) };
    } catch (error) {
      // The same word for a timeout as before, so failure tables stay comparable.
      if (
        error instanceof Error &&
        (error.name === 'TimeoutError' || error.name === 'AbortError')
      ) {
        throw new Error('timeout');
      }
      throw error;
    }
  }

  /**
   * Sends `spec` and records its latency under `route`, measured from `scheduledAt` (when the
   * request was due), not from when it left: a request that waits for a free connection or for a
   * late timer is charged that wait, so a slow server cannot hide behind fewer samples
   * (no coordinated omission).
   */
  async call(route: string, scheduledAt: number, spec: RequestSpec): Promise<HttpResponse> {
    const sentAt = performance.now();
    let res: HttpResponse;
    this.inFlight++;
    try {
      res = await this.send(spec);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      this.recorder.record(route, scheduledAt, sentAt, performance.now(), message);
      throw new UnexpectedResponse(route, 0, message);
    } finally {
      this.inFlight--;
    }
    const endedAt = performance.now();
    if (!spec.expect.includes(res.status)) {
      const text = res.body.toString('utf8');
      this.recorder.record(
        route,
        scheduledAt,
        sentAt,
        endedAt,
        `${res.status} ${text.slice(0, 160)}`,
      );
      throw new UnexpectedResponse(route, res.status, text);
    }
    this.recorder.record(route, scheduledAt, sentAt, endedAt);
    return res;
  }

  close() {
    void this.pool.destroy();
  }
}

export function json<T>(res: HttpResponse): T {
  return JSON.parse(res.body.toString('utf8')) as T;
}
