import http from 'node:http';
import { performance } from 'node:perf_hooks';
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
 * One HTTP/1.1 keep-alive pool to one server. node:http rather than fetch: at ~1 500 req/s on two
 * cores that the API also needs, the generator's own cost per request has to stay small.
 */
export class HttpTarget {
  readonly agent: http.Agent;
  /** Requests sent and not yet answered; the run waits for these before it stops the servers. */
  inFlight = 0;

  constructor(
    readonly host: string,
    readonly port: number,
    /** Swapped between the calibration pass and the load. */
    public recorder: Recorder,
    connections: number,
  ) {
    this.agent = new http.Agent({
      keepAlive: true,
      maxSockets: connections,
      maxFreeSockets: connections,
    });
  }

  private send(spec: RequestSpec): Promise<HttpResponse> {
    return new Promise((resolve, reject) => {
      const headers: http.OutgoingHttpHeaders = { ...spec.headers };
      if (spec.body !== undefined) headers['content-length'] = Buffer.byteLength(spec.body);
      const req = http.request(
        {
          host: this.host,
          port: this.port,
          method: spec.method,
          path: spec.path,
          headers,
          agent: this.agent,
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () =>
            resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks) }),
          );
          res.on('error', reject);
        },
      );
      req.setTimeout(REQUEST_TIMEOUT_MS, () => req.destroy(new Error('timeout')));
      req.on('error', reject);
      req.end(spec.body);
    });
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
    this.agent.destroy();
  }
}

export function json<T>(res: HttpResponse): T {
  return JSON.parse(res.body.toString('utf8')) as T;
}
