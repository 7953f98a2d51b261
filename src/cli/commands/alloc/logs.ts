import { defineCommand } from '../../define.js';
import { ALLOC_ARG, BY_JOB_FLAGS, TAIL_SIZE_FLAGS } from './read-flags.js';

export default defineCommand({
  path: ['alloc', 'logs'],
  synopsis: 'Stream the logs of a task',
  usage: 'svc alloc logs [options] ALLOC [TASK]',
  description:
    "Prints a task's stdout (-stderr: its stderr) from the start, across its rotated log files; -tail " +
    'starts at the last -n lines (10) or -c bytes. -f keeps printing until the task is dead and its log ' +
    'drained, or Ctrl-C; -f alone follows stdout and stderr from their end, or, when the task is already ' +
    'dead, prints both whole and exits. TASK may be left out when the ' +
    'allocation has one task (a terminal asks which otherwise).',
  examples: [
    { command: 'svc alloc logs -stderr -tail -n 50 9f2c web' },
    { command: 'svc alloc logs -f -job countdown', description: 'Follow the newest running allocation of a job' },
  ],
  exitCodes: { 0: 'the log was printed, followed to its end, or interrupted', 1: 'an error, an unknown allocation or task' },
  family: 'scheduler',
  flagSets: ['http', 'prompt'],
  flags: [
    { name: 'stdout', type: 'bool', description: 'Print stdout (the default, except with -f alone).' },
    { name: 'stderr', type: 'bool', description: 'Print stderr.' },
    { name: 'f', type: 'bool', description: 'Follow the log until the task is dead.' },
    { name: 'tail', type: 'bool', description: 'Start near the end: the last -n lines (10) or -c bytes.' },
    ...TAIL_SIZE_FLAGS,
    { name: 'task', type: 'string', description: 'The task (the same as the TASK argument).' },
    ...BY_JOB_FLAGS,
  ],
  args: [
    ALLOC_ARG,
    { name: 'task', description: 'The task whose log to print.' },
  ],
  run: async (ctx) => (await import('./logs.run.js')).allocLogs(ctx),
});
