import http from 'node:http';
import { once } from 'node:events';
import type { Child } from './processes';

// bench:restart's load balancer, in the bench process: what an orchestrator and a load balancer
// do during a rolling restart, reduced to what the API's side of it needs to be judged.

/** How often the proxy probes each instance's /readyz, and how long an answer may take. */
export const PROBE_MS = 500;
export const PROBE_TIMEOUT_MS = 2000;
/** Consecutive failed probes that take an instance out of rotation (one success puts it back). */
export const UNHEALTHY_THRESHOLD = 3;

export interface BalancedInstance {
  name: string;
  port: number;
  child: Child | null;
  ready: boolean;
  failedProbes: number;
  probing: boolean;
  /** Sent its SIGTERM and not yet back: out of the rotation whatever its probes say. */
  draining: boolean;
  agent: http.Agent;
}

/**
 * The load balancer: round robin over ready instances; a connection that fails before the request
 * went out tries the next.
 */
export async function startBalancer(instances: BalancedInstance[]) {
  let next = 0;
  const failOpen = { count: 0 };
  const retried = { count: 0 };
  // As a load balancer's health check: a slow answer on a loaded machine is not a verdict, a few
  // failures in a row are.
  const verdict = (instance: BalancedInstance, ok: boolean) => {
    instance.probing = false;
    instance.failedProbes = ok ? 0 : instance.failedProbes + 1;
    if (ok) instance.ready = true;
    else if (instance.failedProbes >= UNHEALTHY_THRESHOLD) instance.ready = false;
  };
  const probe = setInterval(() => {
    for (const instance of instances) {
      if (instance.probing) continue;
      instance.probing = true;
      const req = http.get({ host: '127.0.0.1', port: instance.port, path: '/readyz', timeout: PROBE_TIMEOUT_MS }, (res) => {
        res.resume();
        verdict(instance, res.statusCode === 200);
      });
      req.on('error', () => verdict(instance, false));
      req.on('timeout', () => req.destroy());
    }
  }, PROBE_MS);
  const forward = (req: http.IncomingMessage, body: Buffer, res: http.ServerResponse, tried: Set<BalancedInstance>) => {
    const untried = instances.filter((i) => !tried.has(i) && !i.draining);
    let ready = untried.filter((i) => i.ready);
    // No instance passes its probe (an overloaded machine answers /readyz late): like a load
    // balancer's fail-open ("panic") mode, try them all rather than refuse everyone; all but the
    // one being stopped, which the orchestrator has deregistered.
    if (ready.length === 0) {
      ready = untried;
      if (ready.length > 0) failOpen.count++;
    }
    if (ready.length === 0) {
      res.writeHead(503).end('no ready instance');
      return;
    }
    const instance = ready[next++ % ready.length]!;
    tried.add(instance);
    const upstream = http.request(
      { host: '127.0.0.1', port: instance.port, method: req.method, path: req.url, headers: req.headers, agent: instance.agent },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    // Whether any of the request can have reached the instance: a new connection writes it once
    // connected ('connect'), a pooled keep-alive one at once.
    let sent = false;
    upstream.on('socket', (socket) => {
      if (socket.connecting) socket.once('connect', () => (sent = true));
      else sent = true;
    });
    upstream.on('error', (error: NodeJS.ErrnoException) => {
      // Refused, or reset before the connect completed (a listener that closed with the
      // connection still in its accept queue): no byte left, so another instance may take it,
      // POST or not. After that the instance may have acted on it: never resent.
      const neverSent = !sent && (error.code === 'ECONNREFUSED' || error.code === 'ECONNRESET');
      if (neverSent && !res.headersSent) {
        instance.ready = false;
        instance.failedProbes = UNHEALTHY_THRESHOLD;
        retried.count++;
        forward(req, body, res, tried);
      } else if (!res.headersSent) {
        res.writeHead(502).end(`upstream ${instance.name}: ${error.message}`);
      } else res.destroy(error);
    });
    upstream.end(body);
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => forward(req, Buffer.concat(chunks), res, new Set()));
  });
  server.keepAliveTimeout = 60_000;
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    failOpen,
    retried,
    port: (server.address() as { port: number }).port,
    close: () => {
      clearInterval(probe);
      server.closeAllConnections();
      server.close();
    },
  };
}

