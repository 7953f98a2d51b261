/**
 * What a test task printed to stdout: a file's content, `==env`, its environment (`env`), `==end` — the
 * shape the token and identity tests' tasks print, read from the allocation's log once complete.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { until } from './wait.js';

export async function printedByTask(allocDir: string, task: string): Promise<{ file: string; env: Record<string, string> }> {
  const text = await until(
    () => readFile(path.join(allocDir, 'alloc/logs', `${task}.stdout.0`), 'utf8').catch(() => ''),
    (t) => t.includes('==end'),
    `task ${task} to print its environment`,
  );
  const [file, rest] = text.split('\n==env\n');
  const env = Object.fromEntries(
    rest
      .split('\n==end')[0]
      .split('\n')
      .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
  );
  return { file: file.trim(), env };
}
