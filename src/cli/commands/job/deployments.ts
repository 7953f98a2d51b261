import { defineCommand } from '../../define.js';

export default defineCommand({
  path: ['job', 'deployments'],
  synopsis: 'List the deployments of a job',
  usage: 'svc job deployments [options] JOB',
  description:
    'Lists the deployments of a job (an ID or a unique ID prefix), newest first: the job version each rolled ' +
    'out, its status and its description. -latest shows only the latest deployment, in full. -all also ' +
    'lists the deployments of earlier jobs registered under the same ID.',
  examples: [
    { command: 'svc job deployments web' },
    { command: 'svc job deployments -latest web', description: 'The latest deployment and its task groups' },
    { command: 'svc job deployments -json web', description: 'The deployments as a JSON array' },
  ],
  exitCodes: { 0: 'success (also when the job has no deployments)', 1: 'an error, an unknown job, or a prefix matching several jobs' },
  family: 'scheduler',
  flagSets: ['http', 'scheduler-output'],
  flags: [
    { name: 'latest', type: 'bool', description: 'Show only the latest deployment.' },
    { name: 'all', type: 'bool', description: 'Include the deployments of earlier jobs registered under the same ID.' },
    { name: 'verbose', type: 'bool', description: 'Show full IDs.' },
  ],
  args: [{ name: 'job', description: 'A job ID or a unique prefix of one.', required: true, complete: 'job' }],
  run: async (ctx) => (await import('./deployments.run.js')).jobDeployments(ctx),
});
