import { defineCommand } from '../../define.js';

export default defineCommand({
  path: ['job', 'init'],
  synopsis: 'Create an example job file',
  usage: 'svc job init [options] [FILE]',
  description:
    'Writes an example job file to FILE (default example.nomad.hcl), refusing to overwrite an existing ' +
    'file. The example is a service job with comments explaining each block, using the raw_exec driver, ' +
    'so it runs as it is on `svc server -dev`. -short writes it without the comments; -connect writes ' +
    'two services where one finds the other through the service catalogue.',
  examples: [
    { command: 'svc job init', description: 'Write example.nomad.hcl' },
    { command: 'svc job init -short web.nomad.hcl', description: 'The same job, without comments' },
    { command: 'svc job init -connect', description: 'Two services, the dashboard reading the API' },
  ],
  exitCodes: { 0: 'the file was written', 1: 'the file already exists or cannot be written' },
  family: 'scheduler',
  flags: [
    { name: 'short', type: 'bool', description: 'Write the example without its comments.' },
    { name: 'connect', type: 'bool', description: 'Write an example of two services, one reading the other through the service catalogue.' },
  ],
  args: [{ name: 'file', description: 'Where to write the job (default example.nomad.hcl).', complete: 'file' }],
  run: async (ctx) => (await import('./init.run.js')).jobInit(ctx),
});
