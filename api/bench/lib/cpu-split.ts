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
  /** Ticks the hypervisor ran something else while this machine's cores wanted to run (steal). */
  steal?: number;
  /**
   * Per part, the nanoseconds its processes' main threads have run and have waited, runnable, for
   * a core (/proc/<pid>/schedstat), and how often they were taken off a core while runnable
   * (`nonvoluntary_ctxt_switches`); not for PostgreSQL, whose backends come and go.
   */
  scheduled?: Map<string, MainThreadTimes>;
  /** performance.now() when read. */
  at?: number;
}

export interface CpuSplit {
  cores: number;
  /** Cores' worth used per part over the window. */
  parts: Array<{ part: string; cores: number }>;
  /** Cores' worth the machine had idle. */
  idle: number;
  /** Cores' worth used by processes that are none of the named parts ("everything else"). */
  other: number;
  /**
   * Cores' worth the hypervisor gave to other machines while this one's wanted to run (steal
   * time; counted in the busy time, so part of "everything else").
   */
  stolen: number;
  /**
   * Per part, how long its main threads waited for a core while runnable: milliseconds per second
   * of the window, and as a share of the time they wanted one (running or waiting).
   */
  waits: Array<{ part: string; msPerSecond: number; share: number; preemptedPerSecond: number }>;
}

interface MainThreadTimes {
  runNs: number;
  waitNs: number;
  preempted: number;
}

interface Proc {
  pid: number;
  ppid: number;
  name: string;
  ticks: number;
}

/**
 * A main thread's time on a core and waiting for one, in ns (sched_info; absent on some kernels),
 * and the times another task took its core while it could have gone on (a preemption).
 */
function readSchedstat(pid: number): MainThreadTimes | null {
  try {
    const [run, wait] = readFileSync(`/proc/${pid}/schedstat`, 'utf8')
      .trim()
      .split(' ')
      .map(Number);
    const switches = /^nonvoluntary_ctxt_switches:\s*(\d+)$/m.exec(
      readFileSync(`/proc/${pid}/status`, 'utf8'),
    );
    return run !== undefined && wait !== undefined && Number.isFinite(run) && Number.isFinite(wait)
      ? { runNs: run, waitNs: wait, preempted: Number(switches?.[1] ?? 0) }
      : null;
  } catch {
    return null;
  }
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
        // utime + stime (fields 14 and 15 of stat, 12 and 13 after the name). PostgreSQL's
        // backends come and go within a window; the postmaster has reaped the ended ones, whose
        // time is then its children's (cutime + cstime, fields 16 and 17), so it is counted there.
        ticks:
          Number(fields[11]) +
          Number(fields[12]) +
          (name === 'postgres' ? Number(fields[13]) + Number(fields[14]) : 0),
      });
    } catch {
      // The process ended while being read.
    }
  }
  return procs;
}

function machineTicks(): { busy: number; total: number; steal: number } {
  const cpu = readFileSync('/proc/stat', 'utf8').split('\n')[0]?.trim().split(/\s+/).slice(1);
  const values = (cpu ?? []).map(Number);
  const total = values.reduce((a, b) => a + b, 0);
  // idle and iowait
  const idle = (values[3] ?? 0) + (values[4] ?? 0);
  return { busy: total - idle, total, steal: values[7] ?? 0 };
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
    const scheduled = new Map<string, MainThreadTimes>();
    for (const proc of procs) {
      const part = partOf(proc);
      if (!part) continue;
      parts.set(part, (parts.get(part) ?? 0) + proc.ticks);
      if (part === 'PostgreSQL') continue;
      const times = readSchedstat(proc.pid);
      if (!times) continue;
      const sum = scheduled.get(part) ?? { runNs: 0, waitNs: 0, preempted: 0 };
      scheduled.set(part, {
        runNs: sum.runNs + times.runNs,
        waitNs: sum.waitNs + times.waitNs,
        preempted: sum.preempted + times.preempted,
      });
    }
    return { parts, scheduled, at: performance.now(), ...machineTicks() };
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
  const other = Math.max(0, busy - named);
  parts.push({ part: 'everything else', cores: other });
  return {
    cores,
    parts,
    idle: Math.max(0, cores - busy),
    other,
    stolen: Math.max(0, asCores((end.steal ?? 0) - (start.steal ?? 0))),
    waits: schedulerWaits(start, end),
  };
}

/** Main threads' waits for a core over the window, by part (none where schedstat is missing). */
function schedulerWaits(start: CpuSnapshot, end: CpuSnapshot): CpuSplit['waits'] {
  if (!start.scheduled || !end.scheduled || start.at === undefined || end.at === undefined)
    return [];
  const seconds = (end.at - start.at) / 1000;
  if (seconds <= 0) return [];
  const waits: CpuSplit['waits'] = [];
  for (const [part, last] of end.scheduled) {
    const first = start.scheduled.get(part);
    if (!first) continue;
    // A process that ended or began within the window would make the difference meaningless.
    const run = last.runNs - first.runNs;
    const wait = last.waitNs - first.waitNs;
    if (run < 0 || wait < 0 || run + wait === 0) continue;
    waits.push({
      part,
      msPerSecond: wait / 1e6 / seconds,
      share: wait / (run + wait),
      preemptedPerSecond: Math.max(0, last.preempted - first.preempted) / seconds,
    });
  }
  return waits.sort((a, b) => b.msPerSecond - a.msPerSecond);
}

export function cpuSplitText(split: CpuSplit): string {
  const lines = [
    `CPU of the machine over the window (${split.cores} cores): ` +
      split.parts.map((p) => `${p.part} ${p.cores.toFixed(2)}`).join(', ') +
      `; idle ${split.idle.toFixed(2)}` +
      // A virtual machine's cores can wait for the host: time no process here had.
      (split.stolen >= 0.005 ? `; stolen by the host ${split.stolen.toFixed(2)}` : ''),
  ];
  // A server's main thread that is runnable but not running answers nobody: its queue grows, and
  // the requests behind it wait that long plus the time to work the backlog off.
  if (split.waits.length > 0) {
    lines.push(
      'main threads waiting for a core while runnable (/proc/<pid>/schedstat): ' +
        split.waits
          .map(
            (w) =>
              `${w.part} ${w.msPerSecond.toFixed(0)} ms a second ` +
              `(${(100 * w.share).toFixed(0)} % of the time it wanted one; ` +
              `preempted ${w.preemptedPerSecond.toFixed(0)} times a second)`,
          )
          .join(', '),
    );
  }
  return lines.join('\n');
}
