/** Files that a crash can leave old or new, never half-written: write a sibling, then rename over. */
import { readFileSync, renameSync, writeFileSync } from 'node:fs';

export function writeJsonAtomic(file: string, value: unknown, mode = 0o600): void {
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, JSON.stringify(value), { mode });
  renameSync(tmp, file);
}

/** undefined when the file does not exist (yet). */
export function readJsonIfExists<T>(file: string): T | undefined {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
  return JSON.parse(text) as T;
}
