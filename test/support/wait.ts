/** Waiting for what a real server does in the background, and reading API failures, for end-to-end tests. */
import type { ApiError } from '../../src/shared/errors.js';

/**
 * Calls `fn` until `ok` accepts its answer (failed calls count as not yet), or fails after `ms` with
 * what it last saw, so a timeout says what the state was.
 */
export async function until<T>(fn: () => Promise<T>, ok: (v: T) => boolean, what: string, ms = 20_000): Promise<T> {
  const deadline = Date.now() + ms;
  let last: T | undefined;
  for (;;) {
    last = await fn().catch(() => undefined);
    if (last !== undefined && ok(last)) return last;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; last seen: ${JSON.stringify(last)?.slice(0, 2000)}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** Whether a process with this PID exists. */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** The status code and message of an API call: 200 and '' when it succeeded. */
export async function statusOf(p: Promise<unknown>): Promise<{ code: number; message: string }> {
  try {
    await p;
    return { code: 200, message: '' };
  } catch (err) {
    return { code: (err as ApiError).statusCode, message: (err as ApiError).errors?.join(' ') ?? '' };
  }
}
