/** Reading and writing the kernel's cgroup files, and waiting for what the kernel does asynchronously. */
import { mkdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';

/** How long to wait for the kernel to freeze a cgroup or to reap the processes killed in it. */
const SETTLE_MS = 10_000;

export function readText(file: string): string {
  return readFileSync(file, 'utf8');
}

/** The file's text, or undefined when the kernel does not offer it (an older kernel, a missing controller). */
export function readOptional(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

export function readNumber(file: string): number {
  const t = readOptional(file)?.trim();
  return t && /^\d+$/.test(t) ? Number(t) : 0;
}

export function writeText(file: string, value: string | number): void {
  writeFileSync(file, String(value));
}

/** For settings a kernel may lack (memory.swappiness in some setups, memsw without swap accounting). */
export function tryWrite(file: string, value: string | number): boolean {
  try {
    writeText(file, value);
    return true;
  } catch {
    return false;
  }
}

export function ensureDir(dir: string): void {
  mkdirSync(dir, { recursive: true });
}

export function readPids(procsFile: string): number[] {
  const t = readOptional(procsFile);
  if (!t) return [];
  return t.split('\n').filter(Boolean).map(Number);
}

export function killPids(pids: number[]): void {
  for (const pid of pids) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
}

/** Polls until `done()` holds; false when it still does not after the settle time. */
export async function settle(done: () => boolean): Promise<boolean> {
  const deadline = Date.now() + SETTLE_MS;
  for (let wait = 1; ; wait = Math.min(wait * 2, 50)) {
    if (done()) return true;
    if (Date.now() > deadline) return false;
    await sleep(wait);
  }
}

/**
 * Removes an empty cgroup directory. The kernel refuses (EBUSY) while a killed process is still being
 * reaped, so it is tried until the settle time is up; a directory already gone is fine.
 */
export async function removeDir(dir: string): Promise<void> {
  let last: Error | undefined;
  const ok = await settle(() => {
    try {
      rmdirSync(dir);
      return true;
    } catch (err) {
      const e = err as NodeJS.ErrnoException;
      if (e.code === 'ENOENT') return true;
      last = e;
      return false;
    }
  });
  if (!ok) throw new Error(`removing cgroup ${dir}: ${last?.message}`);
}
