/**
 * `svc job validate`: parse a job file here and have the server check it. The command's declaration is in
 * src/cli/commands/job/validate.ts.
 */
import type { CommandContext } from '../../define.js';
import { clientFor } from '../../client-from-flags.js';
import { CommandFailure, reportingFailures } from '../../command-failure.js';
import { loadJobFileOfCommand } from '../../job-file.js';

interface ValidateResponse {
  DriverConfigValidated: boolean;
  ValidationErrors: string[] | null;
  Error: string;
  Warnings: string;
}

export function jobValidate(ctx: CommandContext): Promise<number> {
  return reportingFailures(ctx, async () => {
    const loaded = await loadJobFileOfCommand(ctx);
    const { body } = await clientFor(ctx).scheduler<ValidateResponse>('PUT', '/v1/validate/job', { body: { Job: loaded.job } });
    if (body.Error !== '') throw new CommandFailure(`Job validation errors:\n${body.Error}`);
    if (body.Warnings !== '') ctx.io.out(`Job Warnings:\n${body.Warnings}\n\n`);
    ctx.io.out('Job validation successful');
    return 0;
  });
}
