import { defineCommand, type FlagSpec } from '../../define.js';

/** The flags of both promote commands (`job promote` promotes its job's latest deployment). */
export const PROMOTE_FLAGS: FlagSpec[] = [
  { name: 'group', type: 'strings', description: 'Promote only this task group\'s canaries. Repeatable.' },
  { name: 'detach', type: 'bool', description: 'Print the evaluation ID and return instead of following the evaluation.' },
  { name: 'verbose', type: 'bool', description: 'Show full IDs.' },
];

export default defineCommand({
  path: ['deployment', 'promote'],
  synopsis: 'Promote canaries in a deployment',
  usage: 'svc deployment promote [options] DEPLOYMENT',
  description:
    'Promotes the canaries of a deployment, of every task group or of those named by -group, once they ' +
    'are healthy, so the rest of the allocations are replaced max_parallel at a time. The command follows ' +
    'the evaluation and the deployment unless -detach is given.',
  examples: [{ command: 'svc deployment promote 3eefc5eb' }, { command: 'svc deployment promote -group web 3eefc5eb' }],
  exitCodes: { 0: 'the canaries were promoted', 1: 'an error: an unknown deployment, unhealthy canaries, or nothing to promote' },
  family: 'scheduler',
  flagSets: ['http'],
  flags: PROMOTE_FLAGS,
  args: [{ name: 'deployment', description: 'A deployment ID or a unique prefix of one.', required: true, complete: 'deployment' }],
  run: async (ctx) => (await import('./promote.run.js')).deploymentPromote(ctx),
});
