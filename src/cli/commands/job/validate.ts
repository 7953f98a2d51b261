import { defineCommand } from '../../define.js';

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
  run: async (ctx) => (await import('./validate.run.js')).jobValidate(ctx),
});
