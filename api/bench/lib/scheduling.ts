import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

/**
 * How the bench's processes share this machine's cores: as they would in production, where the
 * clients are other machines and every service runs as a unit of its own.
 *
 * - The load generator (this process, and the threads it starts) runs as `SCHED_BATCH`. A batch
 *   task keeps its full share of the CPU, but its wake-ups never preempt the task running on a
 *   core. A browser's answer arriving does not stop the server on another machine; here each
 *   answer's write woke the generator, which then took the server's core in the middle of the
 *   server's turn, and the polls behind it waited (api/docs/latency-journal.md, "Third late
 *   afternoon").
 * - Every server runs in a session of its own (`detached`, setsid), as a service manager starts
 *   each service in a group of its own. With autogroup (`kernel.sched_autogroup_enabled`, on in
 *   Debian's kernels) a session is one scheduling group, weighed like one busy task: PostgreSQL's
 *   backends each open a session of their own, while the API shared one with the generator and
 *   the bare server, and so had half a backend's weight on its core.
 *
 * `--plain-scheduling` keeps the old layout (everything as the shell started it) to compare.
 */
export interface Scheduling {
  /** The generator runs as SCHED_BATCH and the servers it starts as SCHED_OTHER. */
  batchGenerator: boolean;
  /** Every server is started in a session of its own. */
  ownSessions: boolean;
  /** One line for the bench's header. */
  description: string;
}

let current: Scheduling = {
  batchGenerator: false,
  ownSessions: false,
  description: 'plain scheduling: every process as the shell started it',
};

/** What `arrangeScheduling` set (plain until it is called). */
export const scheduling = (): Scheduling => current;

/** Whether the kernel groups each session's tasks for the scheduler (Linux's autogroup). */
function autogroupEnabled(): boolean {
  try {
    return readFileSync('/proc/sys/kernel/sched_autogroup_enabled', 'utf8').trim() === '1';
  } catch {
    return false;
  }
}

/**
 * Puts this process's threads under SCHED_BATCH (with util-linux's `chrt`) and has
 * `serverCommand` start servers in sessions of their own. Elsewhere than Linux, or without
 * `chrt`, the generator keeps its policy and the header says why.
 */
export function arrangeScheduling(plain: boolean): Scheduling {
  if (plain || process.platform === 'win32') return current;
  let batchGenerator = false;
  let why = '';
  if (process.platform === 'linux') {
    try {
      execFileSync('chrt', ['--all-tasks', '--batch', '--pid', '0', String(process.pid)], {
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      batchGenerator = true;
    } catch (error) {
      const message = error instanceof Error ? error.message.split('\n')[0] : String(error);
      why = ` (chrt failed: ${message})`;
    }
  } else {
    why = ' (SCHED_BATCH is Linux only)';
  }
  const groups = autogroupEnabled() ? ', one autogroup each' : '';
  const generator = batchGenerator
    ? 'SCHED_BATCH (its wake-ups preempt no server)'
    : `unchanged${why}`;
  current = {
    batchGenerator,
    ownSessions: true,
    description:
      `scheduling: load generator ${generator}; ` +
      `each server in a session of its own${groups}; --plain-scheduling for neither`,
  };
  return current;
}

/**
 * The command that starts a server (`node` with `args`): back under SCHED_OTHER when the
 * generator is a batch task, since a child inherits its parent's policy (and a cluster's workers
 * their primary's).
 */
export function serverCommand(args: string[]): {
  command: string;
  args: string[];
  detached: boolean;
} {
  const { batchGenerator, ownSessions: detached } = current;
  return batchGenerator
    ? { command: 'chrt', args: ['--other', '0', process.execPath, ...args], detached }
    : { command: process.execPath, args, detached };
}
