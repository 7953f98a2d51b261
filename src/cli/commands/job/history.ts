import { defineCommand } from '../../define.js';

export default defineCommand({
  path: ['job', 'history'],
  synopsis: 'Display all tracked versions of a job',
  usage: 'svc job history [options] JOB',
  description:
    'Lists the versions of a job the server keeps, newest first: each version\'s number, whether it is ' +
    'stable and when it was submitted. -p adds what changed from the version before (or, with -diff-version ' +
    'or -diff-tag, from that version), marked + added, - removed, +/- edited, as job plan shows it. -full adds ' +
    'each version\'s whole job.',
  examples: [
    { command: 'svc job history example' },
    { command: 'svc job history -p example', description: 'What changed in each version' },
    { command: 'svc job history -p -diff-version 0 example', description: 'Each version compared with version 0' },
    { command: 'svc job history -version 2 -full example', description: 'One version, with its job' },
    { command: 'svc job history -json example', description: 'The versions as a JSON array' },
  ],
  exitCodes: { 0: 'success', 1: 'an error, an unknown job or version, or a prefix matching several jobs' },
  family: 'scheduler',
  flagSets: ['http', 'scheduler-output'],
  flags: [
    { name: 'p', type: 'bool', description: 'Show the differences between each version and the one before it.' },
    { name: 'diff-version', type: 'string', description: 'With -p, compare every version with this version number instead.' },
    { name: 'diff-tag', type: 'string', description: 'With -p, compare every version with the version tagged with this name instead.' },
    { name: 'full', type: 'bool', description: 'Print the whole job of each version.' },
    { name: 'version', type: 'string', description: 'Show only this version.' },
  ],
  args: [{ name: 'job', description: 'A job ID or a unique prefix of one.', required: true, complete: 'job' }],
  run: async (ctx) => (await import('./history.run.js')).jobHistory(ctx),
});
