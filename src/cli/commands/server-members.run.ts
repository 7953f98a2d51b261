/**
 * `svc server members`: the cluster's servers as `nomad server members` lists them (GET /v1/agent/members),
 * each marked leader when its address and port are the leader's (GET /v1/status/leader), as Nomad's CLI
 * decides it. The command's declaration is in src/cli/commands/server-members.ts; `svc operator members`
 * is Vault's view of the same servers.
 */
import type { CommandContext } from '../define.js';
import { clientFor } from '../client-from-flags.js';
import { reportingFailures } from '../command-failure.js';
import { formatTable } from '../output/format.js';
import { printSchedulerData } from '../output/scheduler-output.js';
import { agentMembers, statusLeader, type AgentMember } from '../../api/agent.js';
import { orFail } from '../failures/api.js';

/** Nomad's isLeader: the member's address with the port its tags announce. */
function isLeader(m: AgentMember, leader: string): boolean {
  const host = m.Addr.includes(':') ? `[${m.Addr}]` : m.Addr;
  return leader !== '' && `${host}:${m.Tags.port ?? ''}` === leader;
}

function tagList(tags: Record<string, string>): string {
  return Object.keys(tags)
    .sort()
    .map((k) => `${k}=${tags[k]}`)
    .join(',');
}

function membersTable(members: AgentMember[], leader: string, verbose: boolean): string {
  const headers = ['Name', 'Address', 'Port', 'Status', 'Leader', ...(verbose ? ['Protocol'] : []), 'Raft Version', 'Build', 'Datacenter', 'Region', ...(verbose ? ['Tags'] : [])];
  const rows = members.map((m) => [
    m.Name,
    m.Addr,
    String(m.Port),
    m.Status,
    String(isLeader(m, leader)),
    ...(verbose ? [String(m.ProtocolCur)] : []),
    m.Tags.raft_vsn ?? '',
    m.Tags.build ?? '',
    m.Tags.dc ?? '',
    m.Tags.region ?? '',
    ...(verbose ? [tagList(m.Tags)] : []),
  ]);
  return formatTable(headers, rows, { empty: '' });
}

export function serverMembers(ctx: CommandContext): Promise<number> {
  return reportingFailures(ctx, async () => {
    const client = clientFor(ctx);
    const members = await orFail('Error querying servers', () => agentMembers(client));
    // Nomad lists the members even when no leader is known: all of them are then not the leader.
    const leader = await statusLeader(client).catch(() => '');
    const sorted = [...members.Members].sort((a, b) => (a.Name < b.Name ? -1 : a.Name > b.Name ? 1 : 0));
    return printSchedulerData(ctx, sorted, () => membersTable(sorted, leader, ctx.flags.verbose === true));
  });
}
