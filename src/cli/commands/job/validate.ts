import { defineCommand } from '../../define.js';
import { clientFor } from '../../client-from-flags.js';
import { UserError } from '../../../shared/errors.js';
import { JobCommandFailure, reportingFailures } from './status.js';

interface ValidateResponse {
  DriverConfigValidated: boolean;
  ValidationErrors: string[] | null;
  Error: string;
  Warnings: string;
}

export default defineCommand({
  path: ['job', 'validate'],
  synopsis: 'Check a job file for errors',
  usage: 'svc job validate [options] FILE',
  description:
    'Parses the job file here, with its variables, then has the server check the job and reports every ' +
    'problem at once. FILE may be "-" to read the job from stdin. Variables come, lowest precedence first, ' +
    'from defaults in the file, NOMAD_VAR_<name> and SVC_VAR_<name> environment variables, -var-file files ' +
    'in order, and -var flags.',
  examples: [
    { command: 'svc job validate example.nomad.hcl' },
    { command: 'svc job validate -var image=redis:7 -var-file prod.vars example.nomad.hcl' },
    { command: 'cat example.nomad.hcl | svc job validate -' },
  ],
  exitCodes: { 0: 'the job is valid', 1: 'the job is invalid, the file cannot be read or parsed, or another error' },
  family: 'scheduler',
  flagSets: ['http'],
  flags: [
    { name: 'json', type: 'bool', description: 'The file holds a job in the API\'s JSON shape; variables cannot be used with it.' },
    { name: 'var', type: 'strings', description: 'A variable value, as name=value. Repeatable.' },
    { name: 'var-file', type: 'strings', description: 'A file of variable values, HCL or JSON. Repeatable; later files win.', complete: 'file' },
  ],
  args: [{ name: 'file', description: 'The job file, or "-" for stdin.', required: true, complete: 'file' }],
  run(ctx) {
    return reportingFailures(ctx, async () => {
      const { loadJobFile } = await import('../../job-file.js');
      const loaded = await loadJobFile({
        path: ctx.args[0],
        vars: (ctx.flags.var as string[] | undefined) ?? [],
        varFiles: (ctx.flags['var-file'] as string[] | undefined) ?? [],
        env: ctx.env,
        stdin: ctx.io.stdin,
        json: ctx.flags.json === true,
      }).catch((err: unknown) => {
        throw err instanceof UserError ? new JobCommandFailure(`Error getting job struct: ${err.message}`) : err;
      });
      const { body } = await clientFor(ctx).scheduler<ValidateResponse>('PUT', '/v1/validate/job', { body: { Job: loaded.job } });
      if (body.Error !== '') throw new JobCommandFailure(`Job validation errors:\n${body.Error}`);
      if (body.Warnings !== '') ctx.io.out(`Job Warnings:\n${body.Warnings}\n\n`);
      ctx.io.out('Job validation successful');
      return 0;
    });
  },
});
