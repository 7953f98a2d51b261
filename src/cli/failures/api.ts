/** How the scheduler commands word a failed API call (Nomad's `Error pausing deployment: …`). */
import { ApiError } from '../../shared/errors.js';
import { CommandFailure } from '../command-failure.js';

export function describeApiError(err: unknown): string {
  if (err instanceof ApiError) return `Unexpected response code: ${err.statusCode} (${err.errors.join('; ')})`;
  return (err as Error)?.message ?? String(err);
}

/** Runs an API call; an API error becomes `<what>: <the server's answer>`, exit 1. */
export async function orFail<T>(what: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    if (err instanceof ApiError) throw new CommandFailure(`${what}: ${describeApiError(err)}`);
    throw err;
  }
}
