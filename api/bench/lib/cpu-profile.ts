import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';

/** The parts of a V8 .cpuprofile this summary reads. */
interface CpuProfile {
  nodes: Array<{
    id: number;
    callFrame: { functionName: string; url: string; lineNumber: number };
    hitCount?: number;
  }>;
  startTime: number;
  endTime: number;
  samples?: number[];
}

export interface ProfileSummary {
  file: string;
  totalMs: number;
  /** Self time per area of the code (database, JWT, Fastify, …), the question a miss raises first. */
  byArea: Array<{ area: string; ms: number; share: number }>;
  top: Array<{ fn: string; where: string; ms: number; share: number }>;
}

const AREAS: ReadonlyArray<[area: string, test: (url: string, fn: string) => boolean]> = [
  ['idle (waiting for I/O)', (_u, fn) => fn === '(idle)'],
  ['garbage collection', (_u, fn) => fn === '(garbage collector)'],
  ['PGlite (Postgres in WASM)', (u) => u.includes('pglite') || u.startsWith('wasm://')],
  ['jose (JWT verify)', (u) => u.includes('/jose/')],
  ['pino (logging)', (u) => u.includes('/pino')],
  ['multipart', (u) => u.includes('multipart') || u.includes('busboy')],
  [
    'fastify + ajv + serializers',
    (u) => /fastify|avvio|find-my-way|ajv|light-my-request|fast-json/.test(u),
  ],
  ['API code (api/src)', (u) => u.includes('/api/src/')],
  ['node internals', (u) => u.startsWith('node:')],
  ['V8 / native', (u) => u === ''],
];

function areaOf(url: string, fn: string): string {
  return AREAS.find(([, test]) => test(url, fn))?.[0] ?? 'other dependencies';
}

/**
 * Self time per function of the API's profile in `dir` (node --cpu-prof). Sample counts times
 * the mean sampling interval is exact enough to tell what a request spends its time on.
 */
export async function summariseProfile(dir: string, topN = 20): Promise<ProfileSummary | null> {
  // tsx's loader runs in a worker thread that writes a profile of its own; the server's main
  // thread is the one with the most to say.
  const files = await Promise.all(
    (await readdir(dir))
      .filter((f) => f.endsWith('.cpuprofile'))
      .map(async (f) => ({ f, size: (await stat(join(dir, f))).size })),
  );
  const file = files.sort((a, b) => b.size - a.size)[0]?.f;
  if (!file) return null;
  const profile = JSON.parse(await readFile(join(dir, file), 'utf8')) as CpuProfile;
  const totalMs = (profile.endTime - profile.startTime) / 1000;
  const samples =
    profile.samples?.length ?? profile.nodes.reduce((n, x) => n + (x.hitCount ?? 0), 0);
  const msPerSample = samples > 0 ? totalMs / samples : 0;

  const byFunction = new Map<string, { fn: string; where: string; area: string; ms: number }>();
  for (const node of profile.nodes) {
    const hits = node.hitCount ?? 0;
    if (hits === 0) continue;
    const { functionName, url, lineNumber } = node.callFrame;
    const fn = functionName || '(anonymous)';
    const where = url
      ? `${url.replace(/^.*\/node_modules\//, '').replace(/^file:\/\/.*\/api\//, 'api/')}:${lineNumber + 1}`
      : '';
    const key = `${fn}@${where}`;
    const entry = byFunction.get(key) ?? { fn, where, area: areaOf(url, fn), ms: 0 };
    entry.ms += hits * msPerSample;
    byFunction.set(key, entry);
  }
  const areas = new Map<string, number>();
  for (const entry of byFunction.values())
    areas.set(entry.area, (areas.get(entry.area) ?? 0) + entry.ms);
  const share = (value: number) => (totalMs > 0 ? value / totalMs : 0);
  return {
    file: join(dir, file),
    totalMs,
    byArea: [...areas.entries()]
      .map(([area, ms]) => ({ area, ms, share: share(ms) }))
      .sort((a, b) => b.ms - a.ms),
    top: [...byFunction.values()]
      .filter((e) => e.fn !== '(idle)' && e.fn !== '(program)')
      .sort((a, b) => b.ms - a.ms)
      .slice(0, topN)
      .map(({ fn, where, ms }) => ({ fn, where, ms, share: share(ms) })),
  };
}

export function profileText(summary: ProfileSummary): string {
  const pct = (x: number) => `${(x * 100).toFixed(1).padStart(5)} %`;
  const lines = [
    `API CPU profile (${(summary.totalMs / 1000).toFixed(1)} s): ${summary.file}`,
    '',
    'self time by area:',
  ];
  for (const a of summary.byArea) lines.push(`  ${pct(a.share)}  ${a.area}`);
  lines.push('', 'hottest functions (self time):');
  for (const t of summary.top) lines.push(`  ${pct(t.share)}  ${t.fn}  ${t.where}`);
  return lines.join('\n');
}
