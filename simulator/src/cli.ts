import { parseArgs } from 'node:util';
import type { TubeSettings } from '@portal/contract';
import { loadConfig, parseApiUrl } from './config';
import { runHeadlessSession, type HeadlessEvidence } from './headless/run-headless-session';
import { SessionApiError } from './session-client';

const USAGE = `Usage: pnpm --filter @portal/simulator sim -- --token <session token> [options]

Joins a simulation session, captures images (or lesson parts), and completes it.

Options:
  --token <token>   session token from the portal's launch link (required)
  --api <url>       API origin (default: API_URL or http://localhost:3000)
  --images <n>      images to take, or lesson parts for a lesson (default 3)
  --kv <kV>         tube voltage, kV (default: the body area's)
  --mas <mAs>       tube current-time product, mAs
  --sid <cm>        source-to-image distance, cm
  --no-complete     leave the session in progress
  --json            print the result as JSON
  -h, --help        show this help`;

function numberOption(name: string, raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  const value = Number(raw);
  if (!Number.isFinite(value)) throw new UsageError(`--${name} must be a number, got "${raw}"`);
  return value;
}

class UsageError extends Error {}

function describe(evidence: HeadlessEvidence): string {
  const { summary } = evidence;
  if (summary.lessonPart) {
    const { doses, doseTime } = summary.lessonPart;
    return `#${evidence.id} ${summary.practiceActivity}: eye ${doses.eye} µSv, chest ${doses.chest} µSv, hip ${doses.hip} µSv over ${doseTime} s`;
  }
  const { tube } = summary;
  return `#${evidence.id} ${summary.practiceActivity}: ${tube.kV} kV, ${tube.mAs} mAs, ${tube.sidCm} cm, DAP ${summary.dapMGyCm2} mGy·cm², ${summary.exposure} exposure (DI ${summary.deviationIndex}), ${Math.round(evidence.imageBytes / 1024)} KB`;
}

/**
 * Session tokens are base64url, so one in 64 starts with '-'; parseArgs would then refuse
 * `--token -abc` as ambiguous. The token always takes the next word, so join the pair.
 */
function joinTokenValue(args: string[]): string[] {
  const joined: string[] = [];
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '--token' && i + 1 < args.length) {
      joined.push(`--token=${args[i + 1]}`);
      i++;
    } else {
      joined.push(args[i]!);
    }
  }
  return joined;
}

async function main(argv: string[]): Promise<number> {
  // `pnpm … sim -- --token T` passes the `--` on; it would end option parsing here.
  const args = argv[0] === '--' ? argv.slice(1) : argv;
  const { values } = parseArgs({
    args: joinTokenValue(args),
    options: {
      token: { type: 'string' },
      api: { type: 'string' },
      images: { type: 'string' },
      kv: { type: 'string' },
      mas: { type: 'string' },
      sid: { type: 'string' },
      'no-complete': { type: 'boolean', default: false },
      json: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
    strict: true,
  });
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  if (!values.token) throw new UsageError('--token is required');
  const images = values.images === undefined ? 3 : Number(values.images);
  if (!Number.isInteger(images) || images < 0) throw new UsageError(`--images must be a whole number ≥ 0, got "${values.images}"`);
  const tube: Partial<TubeSettings> = {};
  const kV = numberOption('kv', values.kv);
  const mAs = numberOption('mas', values.mas);
  const sidCm = numberOption('sid', values.sid);
  if (kV !== undefined) tube.kV = kV;
  if (mAs !== undefined) tube.mAs = mAs;
  if (sidCm !== undefined) tube.sidCm = sidCm;
  const apiUrl = values.api ? parseApiUrl(values.api, '--api') : loadConfig().apiUrl;

  const result = await runHeadlessSession({
    apiUrl,
    token: values.token,
    images,
    tube,
    complete: !values['no-complete'],
    onEvidence: values.json ? undefined : (evidence) => console.log(describe(evidence)),
  });
  if (values.json) {
    console.log(
      JSON.stringify(
        {
          session: result.session,
          evidence: result.evidence.map(({ id, summary, imageBytes }) => ({ id, ...summary, imageBytes })),
          summary: result.summary,
          completed: result.completed,
        },
        null,
        2,
      ),
    );
  } else {
    const { session } = result;
    console.log(`${session.product.name} · ${session.categoryName ?? session.configuration} · ${session.learner.firstName} ${session.learner.lastName} (${session.mode})`);
    console.log(result.completed ? `Session ${result.completed.uuid} ${result.completed.status}: ${result.summary}` : `Session ${session.uuid} left in progress: ${result.summary}`);
  }
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    if (error instanceof UsageError || (error instanceof TypeError && 'code' in error && String(error.code).startsWith('ERR_PARSE_ARGS'))) {
      console.error(`${error.message}\n\n${USAGE}`);
      process.exit(2);
    }
    console.error(error instanceof SessionApiError || error instanceof Error ? error.message : String(error));
    process.exit(1);
  },
);
