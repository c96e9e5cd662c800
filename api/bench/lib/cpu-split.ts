import { readdirSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';

/**
 * Where the machine's CPU went over the measured window, by part: the API (its process and the
 * cluster's workers), PostgreSQL, the load generator (this process), the bare server, and the
 * rest. On two cores the parts compete, and a part waiting for a core shows as latency in every
 * other; this line says whether the machine, not the API, was the limit. Linux only (/proc);
 * elsewhere the bench prints nothing for it.
 */
export interface CpuSnapshot {
  /** Clock ticks (USER_HZ) per part, and of the whole machine busy and in total. */
  parts: Map<string, number>;
  busy: number;
  total: number;
}

export interface CpuSplit {
  cores: number;
  /** Cores' worth used per part over the window. */
  parts: Array<{ part: string; cores: number }>;
  /** Cores' worth the machine had idle. */
  idle: number;
}

interface Proc {
  pid: number;
  ppid: number;
  name: string;
  ticks: number;
}

function readProcs(): Proc[] {
  const procs: Proc[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // The name is in parentheses and may hold spaces; the fields after it are plain.
      const close = stat.lastIndexOf(')');
      const name = stat.slice(stat.indexOf('(') + 1, close);
      const fields = stat.slice(close + 2).split(' ');
      procs.push({
        pid: Number(entry),
        ppid: Number(fields[1]),
        name,
        // utime + stime (fields 14 and 15 of stat, 12 and 13 after the name).
        ticks: Number(fields[11]) + Number(fields[12]),
      });
    } catch {
      // The process ended while being read.
    }
  }
  return procs;
}

function machineTicks(): { busy: number; total: number } {
  const cpu = readFileSync('/proc/stat', 'utf8').split('\n')[0]?.trim().split(/\s+/).slice(1);
  const values = (cpu ?? []).map(Number);
  const total = values.reduce((a, b) => a + b, 0);
  // idle and iowait
  const idle = (values[3] ?? 0) + (values[4] ?? 0);
  return { busy: total - idle, total };
}

/** Reads every process's CPU ticks, attributed to the parts named by their root process ids. */
export function cpuSnapshot(roots: Record<string, number | undefined>): CpuSnapshot | null {
  if (process.platform !== 'linux') return null;
  try {
    const procs = readProcs();
    const byPid = new Map(procs.map((p) => [p.pid, p]));
    const rootOf = new Map<number, string>();
    for (const [part, pid] of Object.entries(roots)) if (pid) rootOf.set(pid, part);
    const partOf = (proc: Proc): string | null => {
      if (proc.name === 'postgres') return 'PostgreSQL';
      for (
        let p: Proc | undefined = proc, hops = 0;
        p && hops < 16;
        p = byPid.get(p.ppid), hops++
      ) {
        const part = rootOf.get(p.pid);
        if (part) return part;
      }
      return null;
    };
    const parts = new Map<string, number>();
    for (const proc of procs) {
      const part = partOf(proc);
      if (part) parts.set(part, (parts.get(part) ?? 0) + proc.ticks);
    }
    return { parts, ...machineTicks() };
  } catch {
    return null;
  }
}

export function cpuSplit(start: CpuSnapshot, end: CpuSnapshot): CpuSplit {
  const cores = availableParallelism();
  const window = end.total - start.total;
  // Machine ticks count every core: a share of them times the cores is cores' worth.
  const asCores = (ticks: number) => (window > 0 ? (ticks / window) * cores : 0);
  const parts = [...end.parts]
    .map(([part, ticks]) => ({ part, cores: asCores(ticks - (start.parts.get(part) ?? 0)) }))
    .sort((a, b) => b.cores - a.cores);
  const named = parts.reduce((sum, p) => sum + p.cores, 0);
  const busy = asCores(end.busy - start.busy);
  parts.push({ part: 'everything else', cores: Math.max(0, busy - named) });
  return { cores, parts, idle: Math.max(0, cores - busy) };
}

export function cpuSplitText(split: CpuSplit): string {
  return (
    `CPU of the machine over the window (${split.cores} cores): ` +
    split.parts.map((p) => `${p.part} ${p.cores.toFixed(2)}`).join(', ') +
    `; idle ${split.idle.toFixed(2)}`
  );
}
