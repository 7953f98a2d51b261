/**
 * `svc job init`: write an example job file, as `nomad job init` does. The command's declaration is in
 * src/cli/commands/job/init.ts.
 */
import { writeFile } from 'node:fs/promises';
import type { CommandContext } from '../../define.js';
import { CommandFailure, reportingFailures } from '../../command-failure.js';
import { CONNECT_EXAMPLE_JOB, EXAMPLE_JOB, withoutComments } from './init-examples.js';

/** Nomad's default file name. */
const DEFAULT_JOB_FILE = 'example.nomad.hcl';

export function jobInit(ctx: CommandContext): Promise<number> {
  return reportingFailures(ctx, async () => {
    const file = ctx.args[0] ?? DEFAULT_JOB_FILE;
    const connect = ctx.flags.connect === true;
    const full = connect ? CONNECT_EXAMPLE_JOB : EXAMPLE_JOB;
    const text = ctx.flags.short === true ? withoutComments(full) : full;
    try {
      // 'wx': an existing file is never overwritten, even one created since a check would have run.
      await writeFile(file, text, { flag: 'wx', mode: 0o660 });
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'EEXIST') throw new CommandFailure(`Job '${file}' already exists`);
      throw new CommandFailure(`Failed to write '${file}': ${(err as Error).message}`);
    }
    ctx.io.out(connect ? `Example connect job file written to ${file}` : `Example job file written to ${file}`);
    return 0;
  });
}
