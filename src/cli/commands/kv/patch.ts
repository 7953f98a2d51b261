import { defineCommand } from '../../define.js';
import { clientFor } from '../../client-from-flags.js';
import { kvSources, parseKvArgs } from '../../kv-args.js';
import { apiPath, KvFailure, kvTarget, MOUNT_FLAG, reportingKvFailures, step } from './kv-mount.js';
import { printWritten } from './kv-output.js';
import { CAS_FLAG, DATA_ARG } from './put.js';

export default defineCommand({
  path: ['kv', 'patch'],
  synopsis: 'Set or update data in the KV store without overwriting',
  usage: 'svc kv patch [options] KEY [DATA K=V...]',
  description:
    'Changes the given keys of the latest version of KEY on a version 2 mount, keeping the others: the ' +
    'result is a new version. -method=patch (the default) sends one HTTP PATCH, which needs the "patch" ' +
    'capability; -method=rw reads the secret and writes it back merged, with check-and-set on the version ' +
    'read, which needs "read" and "update" instead. -remove-data=K removes key K from the new version (a ' +
    'merge patch with K set to null), so it needs -method=patch: Vault\'s read-and-write would keep K with ' +
    'a null value instead.',
  examples: [
    { command: 'svc kv patch secret/foo bar=baz' },
    { command: 'svc kv patch -cas=2 secret/foo bar=baz', description: 'Patch only if the current version is 2' },
    { command: 'svc kv patch -method=rw secret/foo bar=baz', description: 'Read, merge and write back' },
    { command: 'svc kv patch -remove-data=bar secret/foo', description: 'Remove key bar, keeping the others' },
  ],
  exitCodes: { 0: 'the data was patched', 1: 'a usage error', 2: 'a server error, no secret at KEY, or a version 1 mount' },
  family: 'secrets',
  flagSets: ['http', 'output'],
  flags: [
    MOUNT_FLAG,
    CAS_FLAG,
    { name: 'method', type: 'string', default: 'patch', choices: ['patch', 'rw'], group: 'Common Options', description: 'How to patch: "patch" sends an HTTP PATCH; "rw" reads the secret, merges and writes it back.' },
    { name: 'remove-data', type: 'strings', group: 'Common Options', description: 'A key to remove from the data; repeat the flag for more. Only with -method=patch.' },
  ],
  args: [{ name: 'key', description: 'The secret: mount and name (secret/foo), or its name with -mount.', required: true, complete: 'secrets-path' }, DATA_ARG],
  run: (ctx) =>
    reportingKvFailures(ctx, async () => {
      const data = await parseKvArgs(ctx.args.slice(1), kvSources(ctx.io.stdin));
      const remove = (ctx.flags['remove-data'] as string[] | undefined) ?? [];
      if (Object.keys(data).length === 0 && remove.length === 0) throw new KvFailure('Must supply data', 1);
      if (remove.length > 0 && ctx.flags.method === 'rw') {
        throw new KvFailure('-remove-data needs -method=patch: a read-and-write cannot remove a key, only set it to null', 1);
      }
      if (remove.includes('')) throw new KvFailure('-remove-data needs the name of a key', 1);
      // null in a merge patch removes the key; a key both set and removed is removed, as Vault's order has it.
      for (const key of remove) data[key] = null;
      const t = await kvTarget(ctx, ctx.args[0]);
      if (t.version === 1) throw new KvFailure('K/V engine mount must be version 2 for patch support', 2);
      const path = apiPath(t, 'data');
      const client = clientFor(ctx);
      const cas = ctx.flags.cas as number;
      if (ctx.flags.method === 'rw') {
        const current = await step(`Error doing pre-read at ${path}`, client.secrets('GET', path), `No value found at ${path}`);
        const existing = current?.data?.data as Record<string, unknown> | null | undefined;
        if (!existing) throw new KvFailure(`No value found at ${path}`, 2);
        const version = Number((current?.data?.metadata as { version?: number } | undefined)?.version);
        const body = { data: { ...existing, ...data }, options: { cas: cas > -1 ? cas : version } };
        return printWritten(ctx, path, await step(`Error writing data to ${path}`, client.secrets('PUT', path, { body })));
      }
      const body = { data: { ...data }, options: cas > -1 ? { cas } : {} };
      const headers = { 'content-type': 'application/merge-patch+json' };
      const secret = await step(`Error writing data to ${path}`, client.secrets('PATCH', path, { body, headers }), `No value found at ${path}`);
      return printWritten(ctx, path, secret);
    }),
});
