import { defineCommand } from '../../define.js';

export default defineCommand({
  path: ['alloc', 'pause'],
  synopsis: 'Override the pause schedule of a task',
  usage: 'svc alloc pause [options] ALLOC TASK',
  description:
    "Overrides the schedule block of a task of an allocation (an ID or a unique ID prefix): -state pause " +
    'stops the task (its kill_signal, then SIGKILL after its kill_timeout) whatever the schedule says, ' +
    '-state run starts it, and -state scheduled removes the override so the task follows its schedule ' +
    'again. The override lasts until then, across restarts of the node. -status prints the task\'s ' +
    'current state instead: "" (running), "force_run", "force_pause", "scheduled_pause" or ' +
    '"schedule_resume". Give exactly one of -state and -status. Only tasks with a schedule block can be ' +
    'overridden; a paused task still counts as running, and its allocation is not rescheduled. Setting ' +
    'the state prints nothing on success.\n\n' +
    "Needs submit-job in the allocation's namespace to set the state, read-job to read it.",
  examples: [
    { command: 'svc alloc pause -state pause 9f2c7a11 web', description: 'Stop the task "web" until -state scheduled' },
    { command: 'svc alloc pause -state run 9f2c web', description: 'Run it outside its schedule' },
    { command: 'svc alloc pause -state scheduled 9f2c web', description: 'Follow the schedule again' },
    { command: 'svc alloc pause -status 9f2c web' },
  ],
  exitCodes: { 0: 'the state was set or read', 1: 'an error: neither or both of -state and -status, an unknown allocation or task, a prefix matching several, or a task without a schedule' },
  family: 'scheduler',
  flagSets: ['http'],
  flags: [
    { name: 'state', type: 'string', choices: ['pause', 'run', 'scheduled'], description: 'Override the schedule: pause, run, or scheduled (follow the schedule again).' },
    { name: 'status', type: 'bool', description: "Print the task's pause state instead of setting it." },
    { name: 'task', type: 'string', description: 'The task (the same as the TASK argument).' },
    { name: 'verbose', type: 'bool', description: 'Show full IDs.' },
  ],
  args: [
    { name: 'alloc', description: 'An allocation ID or a unique prefix of one.', required: true, complete: 'alloc' },
    { name: 'task', description: 'The task whose schedule to override or read.' },
  ],
  run: async (ctx) => (await import('./pause.run.js')).allocPause(ctx),
});
