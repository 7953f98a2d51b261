import { defineCommand, type CommandSpec } from '../../define.js';

export const runCommand = defineCommand({
  path: ['job', 'run'],
  synopsis: 'Run a new job or update an existing job',
  usage: 'svc job run [options] FILE',
  description:
    'Submits the job in FILE (HCL2, HCL-JSON, or with -json the API\'s JSON shape; "-" reads stdin) together ' +
    'with its source, then follows the evaluation the server creates: the allocations it places, and why ' +
    'any could not be placed. A service job then rolls out under a deployment, which is followed too until ' +
    'it succeeds or fails (redrawn in place on a terminal, printed at each change otherwise); when a failed ' +
    'deployment rolls back to the last stable version (auto_revert), the rollback is followed as well. ' +
    'Periodic and parameterized jobs are registered without an evaluation. ' +
    'Variables come, lowest precedence first, from defaults in the file, NOMAD_VAR_<name> and SVC_VAR_<name> ' +
    'environment variables, -var-file files in order, and -var flags. The job\'s own namespace, when the ' +
    'file sets one, wins over -namespace.',
  examples: [
    { command: 'svc job run example.nomad.hcl' },
    { command: 'svc job run -detach -var image=redis:7 example.nomad.hcl', description: 'Submit without following the evaluation and the deployment' },
    { command: 'svc job run -check-index 5 example.nomad.hcl', description: 'Update only if the job is still at modify index 5' },
    { command: 'svc job inspect example | svc job run -json -', description: 'Submit a job read back from the server' },
  ],
  exitCodes: {
    0: 'the job was registered, every allocation placed, and its deployment (if it has one) succeeded',
    1: 'an error (unreadable file, invalid job, check-index conflict, server error), or the deployment failed or was cancelled, also when it was rolled back',
    2: 'the job was registered but some allocations could not be placed (a blocked evaluation waits for capacity)',
  },
  family: 'scheduler',
  flagSets: ['http'],
  flags: [
    { name: 'detach', type: 'bool', description: 'Return right after submitting, printing the evaluation ID, instead of following the evaluation and the deployment.' },
    { name: 'verbose', type: 'bool', description: 'Show full IDs, and the deployment\'s allocations.' },
    { name: 'check-index', type: 'string', description: 'Register only if the job\'s modify index is this number; 0 means the job must not exist yet.' },
    { name: 'json', type: 'bool', description: 'The file holds a job in the API\'s JSON shape ({"Job": …} or the bare job); variables cannot be used with it.' },
    { name: 'output', type: 'bool', description: 'Print the job as the API JSON request ({"Job": …}) instead of submitting it.' },
    { name: 'var', type: 'strings', description: 'A variable value, as name=value. Repeatable.' },
    { name: 'var-file', type: 'strings', description: 'A file of variable values, HCL or JSON. Repeatable; later files win.', complete: 'file' },
    { name: 'policy-override', type: 'bool', description: 'Override soft-mandatory policy failures.' },
    { name: 'preserve-counts', type: 'bool', description: 'Keep the current counts of the job\'s existing task groups instead of those in the file.' },
    { name: 'eval-priority', type: 'int', description: 'Priority of the evaluation the registration creates (1 to 100); the job\'s priority by default.' },
    { name: 'hcl2-strict', type: 'bool', default: true, description: 'Fail on unknown variables in -var and -var-file (always on; accepted for compatibility).' },
  ],
  args: [{ name: 'file', description: 'The job file, or "-" for stdin.', required: true, complete: 'file' }],
  run: async (ctx) => (await import('./run.run.js')).jobRun(ctx),
});

/** `svc run`: the same command under its top-level name, as Nomad's `run` alias. */
export const runAlias: CommandSpec = { ...runCommand, path: ['run'], usage: 'svc run [options] FILE', synopsis: 'Run a new job or update an existing job (alias of "job run")' };

export default runCommand;
