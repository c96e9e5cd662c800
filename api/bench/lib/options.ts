import { parseArgs } from 'node:util';

export interface BenchOptions {
  learners: number;
  /** Seconds measured, after the warm-up. */
  duration: number;
  /** Seconds run before measuring; null = one session cycle (the time the load needs to ramp up). */
  warmup: number | null;
  reports: number;
  /** Seconds from session creation until the simulator completes it. */
  sessionSeconds: number;
  evidence: number;
  /** Pause between reading a report and starting the next session. */
  thinkSeconds: number;
  /** Learner-report list requests per second from the educator. */
  educatorRate: number;
  /** Keep-alive connections to the API (and as many to the bare server). */
  connections: number;
  json: boolean;
  /** Write a CPU profile of the API process and print where its time went. */
  profile: boolean;
  /** Leave the temp folder (database, files, profile) in place. */
  keep: boolean;
}

export const USAGE = `Usage: pnpm bench:api -- [options]

  --learners N          simulated learners, each with its own token (default 500)
  --duration S          measured seconds (default 30)
  --warmup S            seconds run before measuring, not counted (default: one session
                        cycle, session + think seconds, while first sessions ramp up)
  --reports N           ended sessions (reports) in the database before the run (default 100000)
  --session-seconds S   session creation → simulator completes (default 60)
  --evidence N          images the headless simulator submits per session (default 2)
  --think-seconds S     pause after reading a report before the next session (default 1)
  --educator-rate R     GET /report/learner per second by an educator (default 2)
  --connections N       keep-alive connections per server (default 128)
  --json                print the results as JSON instead of tables
  --profile             CPU-profile the API process and print its hottest functions
  --keep                keep the temp folder (database, stored files, profile)
  --help`;

function positive(
  name: string,
  text: string | undefined,
  fallback: number,
  integer = true,
): number {
  if (text === undefined) return fallback;
  const value = Number(text);
  if (!Number.isFinite(value) || value < 0 || (integer && !Number.isInteger(value))) {
    throw new Error(`--${name} must be a ${integer ? 'whole ' : ''}number ≥ 0, got "${text}"`);
  }
  return value;
}

export function parseOptions(argv: readonly string[]): BenchOptions | 'help' {
  // `pnpm bench:api -- --x` passes the `--` through; it is not an end-of-options marker here.
  const args = argv.filter((a) => a !== '--');
  const { values } = parseArgs({
    args,
    strict: true,
    options: {
      learners: { type: 'string' },
      duration: { type: 'string' },
      warmup: { type: 'string' },
      reports: { type: 'string' },
      'session-seconds': { type: 'string' },
      evidence: { type: 'string' },
      'think-seconds': { type: 'string' },
      'educator-rate': { type: 'string' },
      connections: { type: 'string' },
      json: { type: 'boolean', default: false },
      profile: { type: 'boolean', default: false },
      keep: { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) return 'help';
  const options: BenchOptions = {
    learners: positive('learners', values.learners, 500),
    duration: positive('duration', values.duration, 30, false),
    warmup: values.warmup === undefined ? null : positive('warmup', values.warmup, 0, false),
    reports: positive('reports', values.reports, 100_000),
    sessionSeconds: positive('session-seconds', values['session-seconds'], 60, false),
    evidence: positive('evidence', values.evidence, 2),
    thinkSeconds: positive('think-seconds', values['think-seconds'], 1, false),
    educatorRate: positive('educator-rate', values['educator-rate'], 2, false),
    connections: positive('connections', values.connections, 128),
    json: values.json ?? false,
    profile: values.profile ?? false,
    keep: values.keep ?? false,
  };
  if (options.learners < 1) throw new Error('--learners must be at least 1');
  if (options.duration <= 0) throw new Error('--duration must be more than 0');
  if (options.connections < 1) throw new Error('--connections must be at least 1');
  if (options.sessionSeconds < 2) throw new Error('--session-seconds must be at least 2');
  return options;
}

export function warmupSeconds(options: BenchOptions): number {
  return options.warmup ?? options.sessionSeconds + options.thinkSeconds;
}
