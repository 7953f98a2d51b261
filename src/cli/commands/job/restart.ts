import { defineCommand } from '../../define.js';

export default defineCommand({
  path: ['job', 'restart'],
  synopsis: 'Restart or reschedule the allocations of a job',
  usage: 'svc job restart [options] JOB',
  description:
    'Restarts the running allocations of a job (an ID or a unique ID prefix) in batches: in place through ' +
    'the allocation restart API, or with -reschedule by stopping each allocation and waiting until its ' +
    'replacement runs (perhaps on another node). Each batch waits for the previous one to be done, and ' +
    'for -batch-wait after it; nothing starts while a deployment of the job is running. -group and -task ' +
    'restrict what is restarted. When a batch fails, -on-error=ask (the default, on a terminal) asks ' +
    'whether to go on and -on-error=fail stops; without a terminal (or with -non-interactive), "ask" needs ' +
    '-yes. -yes answers every question with yes: go on after errors that may not happen again, and ' +
    'without waiting for "ask".',
  examples: [
    { command: 'svc job restart -yes example', description: 'Restart the running tasks of every allocation, one at a time' },
    { command: 'svc job restart -batch-size=50% -batch-wait=30s -on-error=fail example' },
    { command: 'svc job restart -reschedule -yes example', description: 'Replace every allocation with a new one' },
  ],
  exitCodes: { 0: 'every allocation was restarted, nothing was left to restart, or the restart was canceled', 1: 'an error, or some allocations failed to restart' },
  family: 'scheduler',
  flagSets: ['http', 'confirm'],
  flags: [
    { name: 'all-tasks', type: 'bool', description: 'Restart every task of each allocation, including finished prestart and poststart tasks. Not with -task.' },
    { name: 'batch-size', type: 'string', default: '1', description: 'How many allocations to restart at a time: a number, or a percentage of the allocations to restart (rounded up).' },
    { name: 'batch-wait', type: 'string', default: '0s', description: 'How long to wait between batches, or "ask" to ask each time (on a terminal).' },
    { name: 'group', type: 'strings', description: 'Only restart allocations of this group. Repeatable.' },
    { name: 'task', type: 'strings', description: 'Only restart this task of each allocation that has it. Repeatable; not with -all-tasks nor -reschedule.' },
    { name: 'on-error', type: 'string', default: 'ask', choices: ['ask', 'fail'], description: 'When a batch fails: "ask" whether to go on (on a terminal), or "fail" to stop.' },
    { name: 'reschedule', type: 'bool', description: 'Stop each allocation and wait for its replacement to run, instead of restarting in place.' },
    { name: 'verbose', type: 'bool', description: 'Full IDs, and the allocations that are skipped.' },
  ],
  args: [{ name: 'job', description: 'A job ID or a unique prefix of one.', required: true, complete: 'job' }],
  run: async (ctx) => (await import('./restart.run.js')).jobRestart(ctx),
});
