import { defineCommand } from '../../define.js';
import { clientFor } from '../../client-from-flags.js';
import { reportingFailures } from '../../command-failure.js';
import { idLength } from '../../output/nomad.js';
import { apiFailure, resolveAlloc } from './resolve.js';

export default defineCommand({
  path: ['alloc', 'stop'],
  synopsis: 'Stop and reschedule a running allocation',
  usage: 'svc alloc stop [options] ALLOC',
  description:
    'Stops an allocation (an ID or a unique ID prefix). The scheduler replaces it where its job still wants ' +
    'it, through a follow-up evaluation that the command follows unless -detach.',
  examples: [{ command: 'svc alloc stop 9f2c7a11' }, { command: 'svc alloc stop -detach 9f2c', description: 'Print the follow-up evaluation ID and return' }],
  exitCodes: { 0: 'success', 1: 'an error, an unknown allocation, or a prefix matching several', 2: 'the replacement could not be placed' },
  family: 'scheduler',
  flagSets: ['http'],
  flags: [
    { name: 'detach', type: 'bool', description: 'Print the follow-up evaluation ID and return instead of following it.' },
    { name: 'no-shutdown-delay', type: 'bool', description: 'Ignore the group\'s and tasks\' shutdown_delay.' },
    { name: 'verbose', type: 'bool', description: 'Show full IDs.' },
  ],
  args: [{ name: 'alloc', description: 'An allocation ID or a unique prefix of one.', required: true, complete: 'alloc' }],
  run(ctx) {
    return reportingFailures(ctx, async () => {
      const client = clientFor(ctx);
      const length = idLength(ctx.flags.verbose);
      const alloc = await resolveAlloc(client, ctx.args[0], ctx.flags.verbose === true);
      const { stopAlloc } = await import('../../../api/allocs.js');
      const resp = await stopAlloc(client, alloc.ID, { noShutdownDelay: ctx.flags['no-shutdown-delay'] === true, namespace: alloc.Namespace }).catch((err: unknown) =>
        apiFailure('stopping allocation', err),
      );
      if (ctx.flags.detach === true || !resp.EvalID) {
        if (resp.EvalID) ctx.io.out(resp.EvalID);
        return 0;
      }
      const { monitorEvaluation } = await import('../../monitor.js');
      return monitorEvaluation({ client, io: ctx.io, length, namespace: alloc.Namespace }, resp.EvalID);
    });
  },
});
