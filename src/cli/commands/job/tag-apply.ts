import { defineCommand } from '../../define.js';

export default defineCommand({
  path: ['job', 'tag', 'apply'],
  synopsis: 'Tag a job version',
  usage: 'svc job tag apply [options] JOB',
  description:
    'Names a version of a job (an ID or a unique ID prefix): the current version, or the one -version ' +
    'gives. A tagged version is never pruned with the older ones, and its name works in place of its number ' +
    'for `svc job revert` and `svc job history -diff-tag`. Names are unique within a job; tagging the version ' +
    'that already has the name changes its description.',
  examples: [
    { command: 'svc job tag apply -name golden example' },
    { command: 'svc job tag apply -name before-migration -description "last version on the old schema" -version 4 example' },
  ],
  exitCodes: { 0: 'success', 1: 'an error: no -name, an unknown job or version, or a name another version has' },
  family: 'scheduler',
  flagSets: ['http'],
  flags: [
    { name: 'name', type: 'string', description: 'The tag\'s name (required).' },
    { name: 'description', type: 'string', description: 'What the version is (at most 1000 characters).' },
    { name: 'version', type: 'string', description: 'The version to tag; the current one by default.' },
  ],
  args: [{ name: 'job', description: 'A job ID or a unique prefix of one.', required: true, complete: 'job' }],
  run: async (ctx) => (await import('./tag-apply.run.js')).jobTagApply(ctx),
});
