/** Processes on this machine whose command line contains a marker, for tests that check nothing is left running. */
import { readFileSync, readdirSync } from 'node:fs';

export function pidsWithArg(marker: string): number[] {
  const pids: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const args = readFileSync(`/proc/${name}/cmdline`, 'utf8').split('\0');
      const state = readFileSync(`/proc/${name}/stat`, 'utf8').split(') ')[1]?.[0];
      if (state !== 'Z' && args.includes(marker)) pids.push(Number(name));
    } catch {
      // exited meanwhile
    }
  }
  return pids;
}
