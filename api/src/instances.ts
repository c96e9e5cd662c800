import cluster, { type Worker } from 'node:cluster';
import { randomBytes } from 'node:crypto';
import { pino, type Logger } from 'pino';

/**
 * API_INSTANCES=N (issue #24 point 1): this process forks N API processes with node:cluster that
 * share API_PORT (the primary accepts and hands connections out in turn), so the host's proxy,
 * or any load balancer, sees one address however many serve. Production may instead run N
 * separate processes or containers behind its load balancer; the API needs nothing else for it.
 *
 * The instances start one after another, each once the previous one listens, so the first
 * migrates and seeds and the others find it done. One that dies later is replaced; one that dies
 * before it ever listened (a start that fails, e.g. an unreachable database) stops them all.
 * SIGTERM or SIGINT asks every instance to stop (a message, not a second signal: an instance that
 * got the terminal's SIGINT itself would take a second one as "exit at once") and ends with them.
 * The message names the signal: on SIGTERM (an orchestrator's stop) every instance turns unready
 * and keeps serving for SHUTDOWN_DRAIN_SECONDS before the port closes, as a single process does.
 *
 * An instance stopped on its own (`kill -TERM <its pid>`) drains the same way and exits 0; it is
 * then replaced without counting as a crash, so SIGTERM to each instance in turn is a rolling
 * restart of one start onto the code now on disk (docs/deploy.md says what connections see).
 */

/** A crash loop: more replacements than this within RESTART_WINDOW_MS stops everything. */
const MAX_RESTARTS = 5;
const RESTART_WINDOW_MS = 60_000;
const SHUTDOWN_MESSAGE = 'portal-api:shutdown:';

export interface SuperviseOptions {
  instances: number;
  logLevel: string;
}

export function superviseInstances(options: SuperviseOptions, log: Logger = pino({ level: options.logLevel })) {
  // Signed file URLs must verify on every instance: one secret for all when none is configured.
  const env = {
    STORAGE_SIGNING_SECRET:
      process.env.STORAGE_SIGNING_SECRET || randomBytes(32).toString('base64url'),
  };
  const listening = new WeakSet<Worker>();
  const restarts: number[] = [];
  let stopping = false;
  let stopMessage = SHUTDOWN_MESSAGE;
  let exitCode = 0;

  const fork = () => {
    const worker = cluster.fork(env);
    worker.once('listening', () => {
      listening.add(worker);
      // One that was starting when the stop came had no ear for it yet: tell it again.
      if (stopping && worker.isConnected()) worker.send(stopMessage);
      const running = Object.keys(cluster.workers ?? {}).length;
      log.info({ instance: worker.id, pid: worker.process.pid, running }, 'API instance listening');
      if (!stopping && running < options.instances) fork();
    });
    return worker;
  };

  const stopAll = (code: number, signal?: NodeJS.Signals) => {
    exitCode = Math.max(exitCode, code);
    if (stopping) return;
    stopping = true;
    stopMessage = SHUTDOWN_MESSAGE + (signal ?? '');
    for (const worker of Object.values(cluster.workers ?? {})) {
      if (worker?.isConnected()) worker.send(stopMessage);
    }
    if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(exitCode);
  };

  cluster.on('exit', (worker, code, signal) => {
    const running = Object.keys(cluster.workers ?? {}).length;
    if (stopping) {
      if (running === 0) process.exit(exitCode);
      return;
    }
    if (!listening.has(worker)) {
      log.error({ instance: worker.id, code, signal }, 'API instance failed to start; stopping');
      return stopAll(1);
    }
    if (code === 0) {
      // It was asked to stop and finished what it had: a restart, not a crash.
      log.info({ instance: worker.id, pid: worker.process.pid }, 'API instance stopped; starting another');
      fork();
      return;
    }
    const now = Date.now();
    restarts.push(now);
    while (restarts.length > 0 && restarts[0]! < now - RESTART_WINDOW_MS) restarts.shift();
    if (restarts.length > MAX_RESTARTS) {
      log.error({ restarts: restarts.length }, 'API instances keep dying; stopping');
      return stopAll(1);
    }
    log.error({ instance: worker.id, code, signal }, 'API instance died; starting another');
    fork();
  });

  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.on(signal, () => {
      log.info({ signal, instances: Object.keys(cluster.workers ?? {}).length }, 'stopping API instances');
      stopAll(0, signal);
    });
  }
  log.info({ instances: options.instances }, 'starting API instances');
  fork();
}

/**
 * In an instance forked by superviseInstances: `close` once the supervisor asks (with the signal
 * it got), or is gone (its channel closed: no signal, so no drain delay). Not when this process
 * already got a signal of its own: it is closing.
 */
export function onSupervisorShutdown(close: (signal?: NodeJS.Signals) => void) {
  if (!cluster.isWorker) return;
  let signalled = false;
  process.once('SIGTERM', () => (signalled = true));
  process.once('SIGINT', () => (signalled = true));
  let asked = false;
  const stop = (signal?: NodeJS.Signals) => {
    if (asked || signalled) return;
    asked = true;
    close(signal);
  };
  process.on('message', (message) => {
    if (typeof message !== 'string' || !message.startsWith(SHUTDOWN_MESSAGE)) return;
    const signal = message.slice(SHUTDOWN_MESSAGE.length);
    stop(signal === 'SIGTERM' || signal === 'SIGINT' ? signal : undefined);
  });
  process.once('disconnect', () => stop());
}
