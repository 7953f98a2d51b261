import { defineCommand } from '../../define.js';
import { clientFor } from '../../client-from-flags.js';
import { ApiError } from '../../../shared/errors.js';
import type { OutputFormat } from '../../output/format.js';

export default defineCommand({
  path: ['policy', 'read'],
  synopsis: 'Print the text of a policy',
  usage: 'svc policy read [options] NAME',
  description:
    'Prints the document of the named policy as it was written. With -format=json or yaml it prints the ' +
    'response data ({name, policy}) instead; -field=policy prints the text alone.',
  examples: [
    { command: 'svc policy read default' },
    { command: 'svc policy read -format=json ci-deploy', description: 'Print the name and text as JSON' },
  ],
  exitCodes: { 0: 'the policy was printed', 1: 'a usage error', 2: 'a server error, or no such policy' },
  family: 'secrets',
  flagSets: ['http', 'output'],
  args: [{ name: 'name', description: 'The name of the policy.', required: true, complete: 'policy' }],
  async run(ctx) {
    const name = ctx.args[0].trim().toLowerCase();
    let secret;
    try {
      secret = await clientFor(ctx).secrets('GET', `sys/policies/acl/${encodeURIComponent(name)}`);
    } catch (err) {
      if (!(err instanceof ApiError) || err.statusCode !== 404) throw err;
    }
    const data = secret?.data;
    if (!data) {
      ctx.io.err(`No policy named: ${name}`);
      return 2;
    }
    const format = ctx.flags.format as OutputFormat;
    const field = ctx.flags.field as string | undefined;
    if (field) {
      const { renderSecret } = await import('../../output/format.js');
      await renderSecret(ctx.io, { data }, { format, field });
    } else if (format !== 'table') {
      const { renderData } = await import('../../output/format.js');
      await renderData(ctx.io, data, format);
    } else {
      ctx.io.out(String(data.policy ?? '').trim());
    }
    return 0;
  },
});
