import { defineCommand } from '../../define.js';
import { clientFor } from '../../client-from-flags.js';
import { ApiError } from '../../../shared/errors.js';

export default defineCommand({
  path: ['namespace', 'apply'],
  synopsis: 'Create or update a namespace',
  usage: 'svc namespace apply [options] NAME',
  description:
    'Creates the namespace, or updates it when it exists. Settings not given on the command line keep ' +
    'their current values. Needs a management token.',
  examples: [{ command: 'svc namespace apply -description="Web services" web' }],
  exitCodes: { 0: 'success', 1: 'an error' },
  family: 'scheduler',
  flagSets: ['http'],
  flags: [{ name: 'description', type: 'string', description: 'A human-readable description of the namespace.' }],
  args: [{ name: 'name', description: 'The namespace to create or update.', required: true, complete: 'namespace' }],
  async run(ctx) {
    const name = ctx.args[0];
    const client = clientFor(ctx);
    const path = `/v1/namespace/${encodeURIComponent(name)}`;
    let current: Record<string, unknown> = { Name: name };
    try {
      current = (await client.scheduler<Record<string, unknown>>('GET', path)).body;
    } catch (err) {
      if (!(err instanceof ApiError) || err.statusCode !== 404) throw err;
    }
    const ns = { Name: name, Description: current.Description ?? '', Meta: current.Meta ?? {} };
    if (ctx.flags.description !== undefined) ns.Description = ctx.flags.description as string;
    await client.scheduler('POST', path, { body: ns });
    ctx.io.out(`Successfully applied namespace ${JSON.stringify(name)}!`);
    return 0;
  },
});
