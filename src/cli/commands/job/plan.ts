import { defineCommand } from '../../define.js';

export default defineCommand({
  path: ['job', 'plan'],
  synopsis: 'Dry-run a job update to see what the scheduler would do',
  usage: 'svc job plan [options] FILE',
  description:
    'Sends the job in FILE to the server for a dry run of the scheduler against the current cluster, and ' +
    'changes nothing. Prints what changed from the job on the server (+ added, - removed, +/- edited; each ' +
    'task group with the allocations it would create, update in place or destructively, or destroy, and ' +
    'each task with whether its change forces a new allocation), then whether every allocation could be ' +
    'placed, and the job modify index to give `svc job run -check-index` so the job is only submitted if ' +
    'nobody changed it since. Variables are read as `svc job run` reads them.',
  examples: [
    { command: 'svc job plan example.nomad.hcl' },
    { command: 'svc job plan -verbose -var image=redis:7 example.nomad.hcl', description: 'Also show the fields of added groups and tasks' },
    { command: 'svc job plan -diff=false example.nomad.hcl', description: 'Only the scheduler\'s dry run' },
  ],
  exitCodes: {
    0: 'no allocation would be created, destroyed, migrated, replaced or canaried',
    1: 'some allocations would change',
    255: 'an error: unreadable or invalid job file, or a server error',
  },
  family: 'scheduler',
  flagSets: ['http'],
  flags: [
    { name: 'diff', type: 'bool', default: true, description: 'Show the difference between the job and the one on the server.' },
    { name: 'verbose', type: 'bool', description: 'Show the fields of added and removed groups and tasks, and of an unchanged job.' },
    { name: 'json', type: 'bool', description: 'The file holds a job in the API\'s JSON shape; variables cannot be used with it.' },
    { name: 'var', type: 'strings', description: 'A variable value, as name=value. Repeatable.' },
    { name: 'var-file', type: 'strings', description: 'A file of variable values, HCL or JSON. Repeatable; later files win.', complete: 'file' },
    { name: 'policy-override', type: 'bool', description: 'Plan as if soft-mandatory policy failures were overridden.' },
    { name: 'hcl2-strict', type: 'bool', default: true, description: 'Fail on unknown variables in -var and -var-file (always on; accepted for compatibility).' },
  ],
  args: [{ name: 'file', description: 'The job file, or "-" for stdin.', required: true, complete: 'file' }],
  run: async (ctx) => (await import('./plan.run.js')).jobPlan(ctx),
});
