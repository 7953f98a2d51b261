/**
 * `svc job dispatch`: dispatch an instance of a parameterized job, then follow its evaluation. The
 * command's declaration is in src/cli/commands/job/dispatch.ts.
 */
import { readFile } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import type { CommandContext } from '../../define.js';
import { clientFor } from '../../client-from-flags.js';
import { ApiError, UsageError } from '../../../shared/errors.js';
import { CommandFailure, reportingFailures } from '../../command-failure.js';
import { formatKV, idLength, limit } from '../../output/nomad.js';
import { readFailure } from '../../read-failure.js';
import { jobPath } from '../../../api/jobs.js';
import { resolveJob } from '../../resolve/job.js';
import { monitorEvaluation } from '../../monitor.js';
import type { DispatchResponse } from '../../../api/jobs.js';


async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
  return Buffer.concat(chunks);
}

async function readPayload(ctx: CommandContext): Promise<Buffer | undefined> {
  const input = ctx.args[1];
  if (input === undefined) return undefined;
  try {
    return input === '-' ? await readAll(ctx.io.stdin) : await readFile(input);
  } catch (err) {
    throw new CommandFailure(`Error reading input data: ${input}: ${readFailure(err)}`);
  }
}

function metaOf(values: unknown): Record<string, string> {
  const meta: Record<string, string> = {};
  for (const m of (values as string[] | undefined) ?? []) {
    const eq = m.indexOf('=');
    if (eq < 0) throw new UsageError(`Error parsing meta value: ${m}`);
    meta[m.slice(0, eq)] = m.slice(eq + 1);
  }
  return meta;
}

export function jobDispatch(ctx: CommandContext): Promise<number> {
  return reportingFailures(ctx, async () => {
    if (ctx.args.length > 2) throw new UsageError('This command takes one or two arguments: <parameterized job> [<input>]');
    const meta = metaOf(ctx.flags.meta);
    const payload = await readPayload(ctx);
    const client = clientFor(ctx);
    const job = await resolveJob(ctx, client, ctx.args[0]);
    const token = ctx.flags['idempotency-token'] as string | undefined;
    let resp: DispatchResponse;
    try {
      resp = (
        await client.scheduler<DispatchResponse>('POST', jobPath(job.ID, '/dispatch'), {
          query: { namespace: job.Namespace, ...(token ? { idempotency_token: token } : {}) },
          body: {
            JobID: job.ID,
            Payload: payload && payload.length > 0 ? payload.toString('base64') : undefined,
            Meta: meta,
            IdPrefixTemplate: (ctx.flags['id-prefix-template'] as string | undefined) ?? '',
            Priority: (ctx.flags.priority as number | undefined) ?? 0,
          },
        })
      ).body;
    } catch (err) {
      if (err instanceof ApiError) throw new CommandFailure(`Failed to dispatch job: Unexpected response code: ${err.statusCode} (${err.errors.join('; ')})`);
      throw err;
    }
    const length = idLength(ctx.flags.verbose);
    // A dispatched periodic job launches on its schedule: no evaluation to show or follow.
    const rows: [string, string][] = [['Dispatched Job ID', resp.DispatchedJobID]];
    if (resp.EvalID) rows.push(['Evaluation ID', limit(resp.EvalID, length)]);
    ctx.io.out(formatKV(rows));
    if (ctx.flags.detach === true || !resp.EvalID) return 0;
    ctx.io.out('');
    return monitorEvaluation({ client, io: ctx.io, length, namespace: job.Namespace }, resp.EvalID);
  });
}
