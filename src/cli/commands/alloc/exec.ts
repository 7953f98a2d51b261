import { defineCommand } from '../../define.js';

export default defineCommand({
  path: ['alloc', 'exec'],
  synopsis: 'Execute commands in task',
  usage: 'svc alloc exec [options] ALLOC COMMAND [ARGS...]',
  description:
    'Runs a command in a running task of an allocation (an ID or prefix; with -job, a job and a random running ' +
    'allocation of it) and exits with its exit code. Options end at ALLOC. On a terminal the command gets one ' +
    '(-t) sized like yours, and ESCAPE then "." at the start of a line closes the session; otherwise the ' +
    'streams are piped as bytes.',
  examples: [{ command: 'svc alloc exec -task web 9f2c /bin/sh' }, { command: 'svc alloc exec -job -group api example ls -la /local' }],
  exitCodes: { 0: 'the command exited 0 (other exit codes are the command\'s own)', 1: 'an error, a closed session, or the command exited 1' },
  family: 'scheduler',
  flagSets: ['http', 'prompt'],
  flags: [
    { name: 'task', type: 'string', description: 'The task to run in; needed when there are several.' },
    { name: 'job', type: 'bool', description: 'ALLOC is a job ID: use a random running allocation of it.' },
    { name: 'group', type: 'string', description: 'With -job: only allocations of this task group.' },
    { name: 'i', type: 'bool', default: true, description: 'Pass stdin to the command.' },
    { name: 't', type: 'bool', description: 'Allocate a terminal; the default when stdin and stdout are terminals.' },
    { name: 'e', type: 'string', default: '~', description: 'The escape character (ESCAPE . closes, ESCAPE ESCAPE sends one), or "none".' },
    { name: 'verbose', type: 'bool', description: 'Show full IDs.' },
  ],
  args: [
    { name: 'alloc', description: 'An allocation ID or prefix (a job ID with -job).', required: true, complete: 'alloc' },
    { name: 'command', description: 'The command and its arguments, passed untouched.', required: true, variadic: true },
  ],
  stopAtFirstArg: true,
  run: async (ctx) => (await import('./exec.run.js')).allocExec(ctx),
});
