import { defineCommand } from '../../define.js';
import { clientFor } from '../../client-from-flags.js';
import { reportingKvFailures, step } from '../kv/kv-mount.js';
import { mountPath } from './mount-flags.js';

interface MoveStatus {
  migration_info?: { status?: string };
}

export default defineCommand({
  path: ['secrets', 'move'],
  synopsis: 'Move a secrets engine to a new path',
  usage: 'svc secrets move [options] SOURCE DESTINATION',
  description:
    'Moves the secrets engine at SOURCE to DESTINATION, with its data and settings; DESTINATION must be ' +
    'free. The command follows the move (sys/remount/status) until it has succeeded or failed. Tokens ' +
    'whose policies name the old path need their policies changed. Needs "sudo" on sys/remount.',
  examples: [{ command: 'svc secrets move secret/ generic/' }],
  exitCodes: { 0: 'the engine was moved', 1: 'a usage error', 2: 'a server error, or the move failed' },
  family: 'secrets',
  flagSets: ['http'],
  args: [
    { name: 'source', description: 'The engine\'s mount path now.', required: true, complete: 'secrets-path' },
    { name: 'destination', description: 'Its new mount path.', required: true },
  ],
  run: (ctx) =>
    reportingKvFailures(ctx, async () => {
      const from = mountPath(ctx.args[0]);
      const to = mountPath(ctx.args[1]);
      const client = clientFor(ctx);
      const what = `Error moving secrets engine ${from} to ${to}`;
      const started = await step(what, client.secrets('POST', 'sys/remount', { body: { from, to } }));
      const id = String(started?.data?.migration_id ?? '');
      ctx.io.out(`Started moving secrets engine ${from} to ${to}, with migration ID ${id}`);
      for (let wait = 100; ; wait = Math.min(wait * 2, 2000)) {
        const answer = await step(what, client.secrets('GET', `sys/remount/status/${id}`));
        const status = (answer?.data as MoveStatus | undefined)?.migration_info?.status;
        if (status === 'success') break;
        if (status === 'failure') {
          ctx.io.err(`Error: the move of secrets engine ${from} to ${to} failed, with migration ID ${id}: the engine stays at ${from}`);
          return 2;
        }
        ctx.io.err(`Waiting for terminal status in migration of secrets engine ${from} to ${to}, with migration ID ${id}`);
        await new Promise((resolve) => setTimeout(resolve, wait));
      }
      ctx.io.out(`Success! Finished moving secrets engine ${from} to ${to}, with migration ID ${id}`);
      return 0;
    }),
});
