/**
 * `svc node drain`: starts or cancels a node's drain, or follows one, as Nomad's command/node_drain.go
 * (its messages, flag rules and confirmation). The command's declaration is in
 * src/cli/commands/node/drain.ts.
 */
import type { CommandContext } from '../../define.js';
import { clientFor } from '../../client-from-flags.js';
import { CommandFailure, reportingFailures } from '../../command-failure.js';
import { formatTime } from '../../output/nomad.js';
import { ApiError, UsageError } from '../../../shared/errors.js';
import { parseGoDuration } from '../../../shared/duration.js';
import { updateNodeDrain, type Node } from '../../../api/nodes.js';
import { confirm } from '../../prompt.js';
import { monitorDrain } from './drain-monitor.js';
import { checkNodeArgument, namedNode } from './self.js';
import { resolveNode } from '../../resolve/node.js';

/** Nomad's defaultDrainDuration. */
const DEFAULT_DEADLINE_NS = 3600e9;
/** What Nomad's CLI sends for -force: any negative deadline forces the drain. */
const FORCE_DEADLINE_NS = -1e9;

/** Go's time.ParseDuration error for text it refuses. */
function durationError(text: string): string {
  if (/^[-+]?(\d+\.?\d*|\.\d+)$/.test(text)) return `time: missing unit in duration ${JSON.stringify(text)}`;
  const unit = /^[-+]?(?:\d+\.?\d*|\.\d+)([^\d.]+)/.exec(text)?.[1];
  if (unit && !['ns', 'us', 'µs', 'μs', 'ms', 's', 'm', 'h'].includes(unit)) return `time: unknown unit ${JSON.stringify(unit)} in duration ${JSON.stringify(text)}`;
  return `time: invalid duration ${JSON.stringify(text)}`;
}

/** The deadline the flags ask for, in nanoseconds, after Nomad's checks of which flags go together. */
function deadlineOf(ctx: CommandContext, disable: boolean): number {
  const text = ctx.flags.deadline as string | undefined;
  const force = ctx.flags.force === true;
  const noDeadline = ctx.flags['no-deadline'] === true;
  if (disable && (text !== undefined || force || noDeadline || ctx.flags['ignore-system'] === true)) {
    throw new UsageError("-disable can't be combined with flags configuring drain strategy");
  }
  if (text !== undefined && (force || noDeadline)) throw new UsageError("-deadline can't be combined with -force or -no-deadline");
  if (force && noDeadline) throw new UsageError('-force and -no-deadline are mutually exclusive');
  if (force) return FORCE_DEADLINE_NS;
  if (noDeadline) return 0;
  if (text === undefined) return DEFAULT_DEADLINE_NS;
  const ns = parseGoDuration(text);
  if (ns === undefined) throw new CommandFailure(`Failed to parse deadline ${JSON.stringify(text)}: ${durationError(text)}`);
  if (ns <= 0) throw new CommandFailure('A positive drain duration must be given');
  return ns;
}

/** The drain's metadata: -m and -meta; cancelling carries the drain's own metadata forward, as Nomad does. */
function drainMeta(ctx: CommandContext, node: Node, enable: boolean): Record<string, string> {
  const meta: Record<string, string> = !enable && node.LastDrain?.Meta ? { ...node.LastDrain.Meta } : {};
  const message = (ctx.flags.m as string | undefined) ?? '';
  if (message !== '') meta[enable ? 'message' : 'cancel_message'] = message;
  for (const pair of (ctx.flags.meta as string[] | undefined) ?? []) {
    if (pair === '') continue;
    const eq = pair.indexOf('=');
    if (eq === -1) meta[pair] = '';
    else meta[pair.slice(0, eq)] = pair.slice(eq + 1);
  }
  return meta;
}

/** Nomad's confirmation when the node was named by a prefix: whether to go on. */
async function confirmed(ctx: CommandContext, typed: string, node: Node, enable: boolean): Promise<boolean> {
  return confirm(ctx.io, `Are you sure you want to ${enable ? 'enable' : 'disable'} drain mode for node "${node.ID}"?`, {
    defaultAnswer: false,
    unanswerable: new UsageError(`"${typed}" is a prefix of node "${node.ID}": pass the full ID, or -yes to go on without confirmation`),
  });
}

export function nodeDrain(ctx: CommandContext): Promise<number> {
  return reportingFailures(ctx, async () => {
    const enable = ctx.flags.enable === true;
    const disable = ctx.flags.disable === true;
    const monitor = ctx.flags.monitor === true;
    if (monitor && (enable || disable)) throw new UsageError("The -monitor flag cannot be used with the '-enable' or '-disable' flags");
    if ((enable && disable) || (!monitor && !enable && !disable)) throw new UsageError("Either the '-enable' or '-disable' flag must be set, unless using '-monitor'");
    checkNodeArgument(ctx);
    const deadline = deadlineOf(ctx, disable);
    const ignoreSystem = ctx.flags['ignore-system'] === true;
    const client = clientFor(ctx);
    const typed = await namedNode(ctx, client);
    const stub = await resolveNode(client, typed, false);
    let read;
    try {
      read = await client.scheduler<Node>('GET', `/v1/node/${encodeURIComponent(stub.ID)}`);
    } catch (err) {
      if (err instanceof ApiError) throw new CommandFailure(`Error toggling drain mode: Unexpected response code: ${err.statusCode} (${err.errors.join('; ')})`);
      throw err;
    }
    const node = read.body;

    if (monitor) {
      if (!node.DrainStrategy) {
        ctx.io.err('No drain strategy set');
        return 0;
      }
      ctx.io.out(`${formatTime(new Date())}: Monitoring node "${node.ID}": Ctrl-C to detach monitoring`);
      await monitorDrain({ client, io: ctx.io, nodeId: node.ID, index: read.index, ignoreSystem });
      return 0;
    }

    if (typed !== node.ID && ctx.flags.yes !== true && !(await confirmed(ctx, typed, node, enable))) {
      ctx.io.out('Canceling drain toggle');
      return 0;
    }
    let index;
    try {
      ({ Index: index } = await updateNodeDrain(client, node.ID, {
        DrainSpec: enable ? { Deadline: deadline, IgnoreSystemJobs: ignoreSystem } : null,
        MarkEligible: ctx.flags['keep-ineligible'] !== true,
        Meta: drainMeta(ctx, node, enable),
      }));
    } catch (err) {
      if (err instanceof ApiError) throw new CommandFailure(`Error updating drain specification: Unexpected response code: ${err.statusCode} (${err.errors.join('; ')})`);
      throw err;
    }
    if (!enable) {
      ctx.io.out(`Node "${node.ID}" drain strategy unset`);
      return 0;
    }
    if (ctx.flags.detach === true) {
      ctx.io.out(`Node "${node.ID}" drain strategy set`);
      return 0;
    }
    const now = formatTime(new Date());
    ctx.io.out(`${now}: Ctrl-C to stop monitoring: will not cancel the node drain`);
    ctx.io.out(`${now}: Node "${node.ID}" drain strategy set`);
    await monitorDrain({ client, io: ctx.io, nodeId: node.ID, index, ignoreSystem });
    return 0;
  });
}
