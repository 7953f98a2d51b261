import { defineCommand } from '../../define.js';

export default defineCommand({
  path: ['job', 'inspect'],
  synopsis: 'Inspect a submitted job',
  usage: 'svc job inspect [options] JOB',
  description:
    'Prints the job as the server holds it, in the API\'s JSON shape, wrapped as {"Job": ...} so the output ' +
    'can be submitted again. -json prints the bare job object. -hcl prints the job file as it was submitted.',
  examples: [
    { command: 'svc job inspect example' },
    { command: 'svc job inspect -version 1 example', description: 'An older version of the job' },
    { command: 'svc job inspect -hcl example', description: 'The submitted job file' },
  ],
  exitCodes: { 0: 'success', 1: 'an error, an unknown job or version, or a prefix matching several jobs' },
  family: 'scheduler',
  flagSets: ['http', 'scheduler-output'],
  flags: [
    { name: 'version', type: 'string', description: 'Inspect this version of the job instead of the current one.' },
    { name: 'hcl', type: 'bool', description: 'Print the job file that was submitted for the version, instead of the JSON.' },
  ],
  args: [{ name: 'job', description: 'A job ID or a unique prefix of one.', required: true, complete: 'job' }],
  run: async (ctx) => (await import('./inspect.run.js')).jobInspect(ctx),
});
