/**
 * How the scheduler commands (job, eval, alloc, node) report a failure they explain themselves: one
 * message on stderr, without the "Error: " prefix, red where stderr takes colour, and exit 1 (Nomad's
 * convention). Anything else propagates to src/main.ts, which maps error types to exit codes.
 */
import type { CommandContext } from './define.js';
import { errColours } from './output/colour.js';

export class CommandFailure extends Error {}

/** Runs a command body, turning CommandFailure into its message and exit code 1. */
export async function reportingFailures(ctx: CommandContext, body: () => Promise<number>): Promise<number> {
  try {
    return await body();
  } catch (err) {
    if (err instanceof CommandFailure) {
      ctx.io.err(errColours().red(err.message));
      return 1;
    }
    throw err;
  }
}
