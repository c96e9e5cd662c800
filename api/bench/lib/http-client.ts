import type http from 'node:http';
import { performance } from 'node:perf_hooks';
import { Pool, type Dispatcher } from 'undici';
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
  /**
   * The client whose own connections carry it (a learner's browser, a learner's simulator), on a
   * target made with `perClient`; otherwise the target's shared pool.
   */
  client?: string;
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

/** How often a target looks for requests past their time (one timer for all, not one each). */
const SWEEP_MS = 100;

/**
 * One request on undici's dispatch interface: no body stream, no promise per step and no
 * AbortSignal with a timer each (together 55 µs of the generator's CPU per request, a quarter of
 * it, measured against the bare server at 2 000 requests a second).
 */
class PendingRequest implements Dispatcher.DispatchHandler {
  private controller: Dispatcher.DispatchController | null = null;
  private status = 0;
  private readonly chunks: Buffer[] = [];
  private settled = false;

  constructor(
    /** performance.now() time by which the answer must have come, counted from the queueing. */
    readonly deadline: number,
    private readonly done: (error: Error | null, res?: HttpResponse) => void,
  ) {}

  private settle(error: Error | null, res?: HttpResponse) {
    if (this.settled) return;
    this.settled = true;
    this.done(error, res);
  }

  /** Its time is up: it fails now, and is cut off on the wire (or as soon as a connection takes it). */
  expire() {
    this.settle(new Error('timeout'));
    this.controller?.abort(new Error('timeout'));
  }

  onRequestStart(controller: Dispatcher.DispatchController) {
    this.controller = controller;
    if (this.settled) controller.abort(new Error('timeout'));
  }

  onResponseStart(_controller: Dispatcher.DispatchController, statusCode: number) {
    this.status = statusCode;
  }

  onResponseData(_controller: Dispatcher.DispatchController, chunk: Buffer) {
    this.chunks.push(chunk);
  }

  onResponseEnd() {
    this.settle(null, { status: this.status, body: Buffer.concat(this.chunks) });
  }

  onResponseError(_controller: Dispatcher.DispatchController, error: Error) {
    this.settle(error);
  }
}

/**
 * One HTTP/1.1 keep-alive pool to one server. undici's Pool rather than node:http's agent: the
 * generator shares two cores with the API and PostgreSQL, and undici costs about half as much CPU
 * per request (73 µs against 136 µs on this machine, measured with both against one node:http
 * server), which was time the API under test did not get (api/README, "Where the time goes").
 */
export class HttpTarget {
  private readonly pool: Pool;
  private readonly pending = new Set<PendingRequest>();
  private readonly sweeper: NodeJS.Timeout;
  /** Requests sent and not yet answered; the run waits for these before it stops the servers. */
  inFlight = 0;

  /** Each client's own connections (`perClient`), by `RequestSpec.client`. */
  private readonly clients = new Map<string, Pool>();

  constructor(
    readonly host: string,
    readonly port: number,
    /** Swapped between the calibration pass and the load. */
    public recorder: Recorder,
    connections: number,
    /**
     * Connections of each client's own (0: every request on the shared pool). A browser keeps its
     * connections while its learner polls; a pool shared by all learners opens connections when
     * its busy ones run out and lets the rest idle out, so bursts of new connections reached the
     * API in the measured window, which a busy Node process accepts one per event-loop turn
     * (api/docs/latency-journal.md, "Night: connections accepted one per turn").
     */
    private readonly perClient = 0,
  ) {
    this.pool = this.newPool(connections);
    this.sweeper = setInterval(() => this.sweep(), SWEEP_MS).unref();
  }

  private newPool(connections: number) {
    return new Pool(`http://${this.host}:${this.port}`, {
      connections,
      // The whole request has REQUEST_TIMEOUT_MS (the signal below); these only must not be
      // shorter.
      headersTimeout: REQUEST_TIMEOUT_MS + 1000,
      bodyTimeout: REQUEST_TIMEOUT_MS + 1000,
    });
  }

  private poolOf(client: string | undefined): Pool {
    if (client === undefined || this.perClient === 0) return this.pool;
    let pool = this.clients.get(client);
    if (!pool) {
      pool = this.newPool(this.perClient);
      this.clients.set(client, pool);
    }
    return pool;
  }

  private send(spec: RequestSpec): Promise<HttpResponse> {
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(spec.headers ?? {})) {
      if (value !== undefined)
        headers[name] = Array.isArray(value) ? value.join(', ') : String(value);
    }
    return new Promise<HttpResponse>((resolve, reject) => {
      const request = new PendingRequest(performance.now() + REQUEST_TIMEOUT_MS, (error, res) => {
        this.pending.delete(request);
        if (error) reject(error);
        else resolve(res!);
      });
      this.pending.add(request);
      this.poolOf(spec.client).dispatch(
        { method: spec.method, path: spec.path, headers, body: spec.body ?? null },
        request,
      );
    });
  }

  /** Fails every request whose time is up, whether it was sent or still waits for a connection. */
  private sweep() {
    const now = performance.now();
    for (const request of this.pending) if (request.deadline <= now) request.expire();
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
    clearInterval(this.sweeper);
    void this.pool.destroy();
    for (const pool of this.clients.values()) void pool.destroy();
    this.clients.clear();
  }
}

export function json<T>(res: HttpResponse): T {
  return JSON.parse(res.body.toString('utf8')) as T;
}
