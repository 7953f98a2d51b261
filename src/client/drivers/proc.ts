/**
 * Processes as /proc shows them. A pid alone does not identify a process across a server restart (pids
 * are reused), so the executor records each pid with its start time (field 22 of /proc/<pid>/stat, clock
 * ticks since boot) and the server later checks both.
 */
import { readFileSync } from 'node:fs';

interface ProcStat {
  state: string;
  startTime: string;
}

function readStat(pid: number): ProcStat | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name may contain spaces and parentheses; the fields after the last ')' are fixed.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { state: fields[0], startTime: fields[19] };
  } catch {
    return undefined;
  }
}

/** The process with this pid is running and is the one that started at `startTime` (not a zombie, not a reuse). */
export function isSameProcessAlive(pid: number, startTime: string): boolean {
  if (pid <= 0 || !startTime) return false;
  const stat = readStat(pid);
  return stat !== undefined && stat.state !== 'Z' && stat.startTime === startTime;
}

/** process.kill that treats "no such process" as done: the target has already exited. */
export function killQuietly(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(pid, signal);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ESRCH') throw err;
  }
}
