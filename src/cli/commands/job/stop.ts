import { defineCommand, type CommandSpec } from '../../define.js';

export const stopCommand = defineCommand({
  path: ['job', 'stop'],
  synopsis: 'Stop a running job',
  usage: 'svc job stop [options] JOB...',
  description:
    'Stops each named job (an ID or a unique ID prefix) and follows the evaluation that stops its ' +
    'allocations. A stopped job stays visible, marked "(stopped)", until garbage collection; -purge removes ' +
    'it at once. When a job was named by a prefix rather than its full ID, the command asks for confirmation ' +
    'on a terminal; -yes gives it in advance, and without a terminal (or with -non-interactive) the stop ' +
    'fails unless -yes or the full ID is given.',
  examples: [
    { command: 'svc job stop example' },
    { command: 'svc job stop -purge -detach example', description: 'Remove the job at once; print the evaluation ID' },
  ],
  exitCodes: { 0: 'every job was stopped (or the stop was declined)', 1: 'an error, an unknown job, a prefix matching several jobs, or a prefix without -yes where no question can be asked' },
  family: 'scheduler',
  flagSets: ['http', 'confirm'],
  flags: [
    { name: 'detach', type: 'bool', description: 'Print the evaluation ID and return instead of following the evaluation.' },
    { name: 'purge', type: 'bool', description: 'Remove the job and its history at once instead of leaving it for garbage collection.' },
    { name: 'global', type: 'bool', description: 'Stop a multi-region job in every region (svc has one region).' },
    { name: 'no-shutdown-delay', type: 'bool', description: 'Ignore the groups\' and tasks\' shutdown_delay.' },
    { name: 'eval-priority', type: 'int', description: 'Priority of the evaluation that stops the job (1 to 100).' },
    { name: 'verbose', type: 'bool', description: 'Show full IDs.' },
  ],
  args: [{ name: 'job', description: 'Job IDs or unique prefixes of them.', required: true, variadic: true, complete: 'job' }],
  run: async (ctx) => (await import('./stop.run.js')).jobStop(ctx),
});

/** `svc stop`: the same command under its top-level name, as Nomad's `stop` alias. */
export const stopAlias: CommandSpec = { ...stopCommand, path: ['stop'], usage: 'svc stop [options] JOB...', synopsis: 'Stop a running job (alias of "job stop")' };

export default stopCommand;
