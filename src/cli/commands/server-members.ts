import { defineCommand } from '../define.js';

export default defineCommand({
  path: ['server', 'members'],
  synopsis: 'Display a list of known servers and their status',
  usage: 'svc server members [options]',
  description: 'Lists the servers of the cluster as `nomad server members` does (`svc operator members`: as Vault does). Needs node:read.',
  examples: [{ command: 'svc server members -verbose' }],
  exitCodes: { 0: 'success', 1: 'an error' },
  family: 'scheduler',
  flagSets: ['http', 'scheduler-output'],
  flags: [{ name: 'verbose', type: 'bool', description: "Show the members' protocol and tags." }],
  run: async (ctx) => (await import('./server-members.run.js')).serverMembers(ctx),
});
