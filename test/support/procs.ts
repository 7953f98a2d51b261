/** Processes on this machine, for tests that check a session's command is gone (or there). */
import { readFileSync, readdirSync } from 'node:fs';

/**
 * The live (not zombie) processes whose arguments start with `prefix` and also include every string of
 * `including`, compared whole: `liveProcesses(['sleep', '987654'])`.
 */
export function liveProcesses(prefix: string[], including: string[] = []): number[] {
  const pids: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const args = readFileSync(`/proc/${name}/cmdline`, 'utf8').split('\0');
      const state = readFileSync(`/proc/${name}/stat`, 'utf8').split(') ')[1]?.[0];
      if (state === 'Z') continue;
      if (prefix.every((p, i) => args[i] === p) && including.every((s) => args.includes(s))) pids.push(Number(name));
    } catch {
      // it exited while we looked
    }
  }
  return pids;
}

/** The live processes with `marker` as one of their arguments. */
export function pidsWithArg(marker: string): number[] {
  return liveProcesses([], [marker]);
}
