/**
 * `svc status PREFIX`, as `nomad status PREFIX`: the job, allocation, node, evaluation or deployment
 * whose ID the prefix names, shown by that kind's own status command, reached through its declaration
 * as the CLI runs it. As Nomad decides: the one kind whose first match is the prefix itself
 * wins; else the one kind with a single match; anything else lists the matches by kind.
 */
import type { CommandContext } from '../define.js';
import { CommandFailure, reportingFailures } from '../command-failure.js';
import { completeValues } from '../complete-values.js';
import jobStatus from './job/status.js';
import allocStatus from './alloc/status.js';
import nodeStatus from './node/status.js';
import evalStatus from './eval/status.js';
import deploymentStatus from './deployment/status.js';

const KINDS = [
  { kind: 'job', title: 'Jobs', command: jobStatus },
  { kind: 'alloc', title: 'Allocs', command: allocStatus },
  { kind: 'node', title: 'Nodes', command: nodeStatus },
  { kind: 'eval', title: 'Evals', command: evalStatus },
  { kind: 'deployment', title: 'Deployments', command: deploymentStatus },
] as const;

type Kind = (typeof KINDS)[number];

async function matchesOf(ctx: CommandContext, id: string): Promise<Array<{ kind: Kind; ids: string[] }>> {
  const signal = new AbortController().signal;
  const found = await Promise.all(KINDS.map(async (kind) => ({ kind, ids: await completeValues(ctx, kind.kind, id, signal) })));
  return found.filter((m) => m.ids.length > 0);
}

function multipleMatches(id: string, matches: Array<{ kind: Kind; ids: string[] }>): CommandFailure {
  return new CommandFailure([`Multiple matches found for id "${id}"`, ...matches.map((m) => `\n${m.kind.title}:\n${m.ids.join(', ')}`)].join('\n'));
}

/** The one kind the prefix names, in Nomad's order of judgement. */
function chosen(id: string, matches: Array<{ kind: Kind; ids: string[] }>): Kind {
  if (matches.length === 0) throw new CommandFailure(`No matches returned for query: "${id}"`);
  const exact = matches.filter((m) => m.ids[0] === id);
  if (exact.length === 1) return exact[0].kind;
  if (exact.length === 0 && matches.length === 1 && matches[0].ids.length === 1) return matches[0].kind;
  throw multipleMatches(id, matches);
}

export function statusByPrefix(ctx: CommandContext): Promise<number> {
  return reportingFailures(ctx, async () => {
    const id = ctx.args[0];
    // That kind's status command, given the HTTP and output settings of this one; its other flags are unset.
    return (await chosen(id, await matchesOf(ctx, id)).command.run({ ...ctx, args: [id] })) ?? 0;
  });
}
