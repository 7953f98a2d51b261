import { defineCommand } from '../../define.js';
import { clientFor } from '../../client-from-flags.js';

interface Namespace {
  Name: string;
  Description?: string;
  Meta?: Record<string, string> | null;
}

export default defineCommand({
  path: ['namespace', 'status'],
  synopsis: 'Display a namespace\'s status',
  usage: 'svc namespace status [options] NAME',
  description: 'Shows the namespace\'s name and description, and its metadata when it has any.',
  examples: [
    { command: 'svc namespace status default' },
    { command: 'svc namespace status -json web', description: 'Print the namespace as JSON' },
  ],
  exitCodes: { 0: 'success', 1: 'an error or an unknown namespace' },
  family: 'scheduler',
  flagSets: ['http', 'scheduler-output'],
  args: [{ name: 'name', description: 'The namespace to show.', required: true }],
  async run(ctx) {
    const name = ctx.args[0];
    const { body: ns } = await clientFor(ctx).scheduler<Namespace>('GET', `/v1/namespace/${encodeURIComponent(name)}`);
    if (ctx.flags.json === true) {
      ctx.io.out(JSON.stringify(ns, null, 4));
      return 0;
    }
    const { formatKV } = await import('../../output/nomad.js');
    let out = formatKV([
      ['Name', ns.Name],
      ['Description', ns.Description ?? ''],
    ]);
    const meta = Object.keys(ns.Meta ?? {}).sort();
    if (meta.length > 0) out += '\nMetadata\n' + formatKV(meta.map((k) => [k, ns.Meta![k]]));
    ctx.io.out(out.trimEnd());
    return 0;
  },
});
