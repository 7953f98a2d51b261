import { defineCommand } from '../../define.js';
import { clientFor } from '../../client-from-flags.js';
import { UsageError } from '../../../shared/errors.js';
import type { OutputFormat } from '../../output/format.js';

/** Which endpoint answers, and what it is asked: Vault's three capability endpoints. */
function request(args: string[], byAccessor: boolean): { path: string; body: Record<string, unknown>; paths: string[] } {
  if (byAccessor) {
    if (args.length < 2) throw new UsageError(`Not enough arguments with -accessor (expected 2 or more, got ${args.length})`);
    return { path: 'sys/capabilities-accessor', body: { accessor: args[0], paths: args.slice(1) }, paths: args.slice(1) };
  }
  if (args.length === 1) return { path: 'sys/capabilities-self', body: { paths: args }, paths: args };
  return { path: 'sys/capabilities', body: { token: args[0], paths: args.slice(1) }, paths: args.slice(1) };
}

export default defineCommand({
  path: ['token', 'capabilities'],
  synopsis: 'Print capabilities of a token on paths',
  usage: 'svc token capabilities [options] [TOKEN | -accessor ACCESSOR] PATH...',
  description:
    'Prints what a token may do on the given paths, from its policies and its entity\'s: "root" for a ' +
    'root token, "deny" where nothing is granted. With one argument, the token in use is checked ' +
    '(sys/capabilities-self, which the default policy allows); with more, the first is the token to check ' +
    '(sys/capabilities), or with -accessor its accessor (sys/capabilities-accessor). For one path the ' +
    'capabilities are printed sorted and comma-separated, as Vault does; for several, one line per path. ' +
    'With -format=json or yaml, one path prints its list and several print the map of path to list.',
  examples: [
    { command: 'svc token capabilities secret/foo', description: 'What the token in use may do on secret/foo' },
    { command: 'svc token capabilities svc.2ORv... sys/auth/cloud auth/token/create', description: 'What another token may do on two paths' },
    { command: 'svc token capabilities -accessor 8609694a... secret/foo', description: 'The same, the token named by its accessor' },
  ],
  exitCodes: { 0: 'the capabilities were printed', 1: 'a usage error', 2: 'a server error, such as an unknown token' },
  family: 'secrets',
  flagSets: ['http', 'output'],
  flags: [{ name: 'accessor', type: 'bool', description: 'Treat the first argument as an accessor instead of a token.' }],
  args: [
    { name: 'token', description: 'The token to check (or with -accessor its accessor), when more than one argument is given.' },
    { name: 'path', description: 'The paths to check.', required: true, variadic: true },
  ],
  async run(ctx) {
    if (ctx.flags.field !== undefined) throw new UsageError('-field is not supported by token capabilities; use -format=json');
    const { path, body, paths } = request(ctx.args, ctx.flags.accessor === true);
    const data = (await clientFor(ctx).secrets('POST', path, { body }))?.data ?? {};
    const capsOf = (p: string) => [...((data[p] as string[] | undefined) ?? [])].sort();
    const format = ctx.flags.format as OutputFormat;
    if (format !== 'table') {
      const { renderData } = await import('../../output/format.js');
      await renderData(ctx.io, paths.length === 1 ? capsOf(paths[0]) : Object.fromEntries(paths.map((p) => [p, capsOf(p)])), format);
      return 0;
    }
    if (paths.length === 1) ctx.io.out(capsOf(paths[0]).join(', '));
    else {
      const { renderTable } = await import('../../output/format.js');
      renderTable(ctx.io, ['Path', 'Capabilities'], paths.map((p) => [p, capsOf(p).join(', ')]), { dashes: true });
    }
    return 0;
  },
});
