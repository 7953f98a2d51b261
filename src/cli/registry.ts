/**
 * Every command and group of the CLI, in one ordered list: the CLI's table of contents. Help, the man
 * pages and the completions are generated from it. Command modules are small; each imports what is
 * heavy inside its `run`, so loading this list stays fast. A group whose declarations alone are too
 * large for every start declares their loader (`GroupSpec.load`) and lives in a bundle of its own, so
 * the full list is reached through `registryFor(argv)` and `fullRegistry()`.
 */
import type { CommandSpec, GroupSpec, Subtree } from './define.js';
import serverCommand from './commands/server.js';
import serverMembersCommand from './commands/server-members.js';
import statusCommand from './commands/status.js';
import uiCommand from './commands/ui.js';
import versionCommand from './commands/version.js';
import { genericCommands } from './commands/generic/index.js';
import { tokenGroup, tokenCommands } from './commands/token/index.js';
import { policyGroup, policyCommands } from './commands/policy/index.js';
import { authGroup, authCloudGroup, authCommands } from './commands/auth/index.js';
import { identityGroup } from './commands/identity/group.js';
import { secretsGroup } from './commands/secrets/group.js';
import { kvGroup } from './commands/kv/group.js';
import { namespaceGroup, namespaceCommands } from './commands/namespace/index.js';
import { docsCommands } from './commands/docs/index.js';
import { jobGroup } from './commands/job/group.js';
import { runAlias } from './commands/job/run.js';
import { stopAlias } from './commands/job/stop.js';
import { evalGroup, evalCommands } from './commands/eval/index.js';
import { allocGroup } from './commands/alloc/group.js';
import { nodeGroup } from './commands/node/group.js';
import { deploymentGroup } from './commands/deployment/group.js';
import { systemGroup, systemCommands } from './commands/system/index.js';
import { serviceGroup, serviceCommands } from './commands/service/index.js';
import { eventGroup, eventCommands } from './commands/event/index.js';
import { agentCommands } from './commands/agent/index.js';
import { printGroup, printCommands } from './commands/print/index.js';
import { operatorGroup } from './commands/operator/group.js';

const groups: GroupSpec[] = [tokenGroup, policyGroup, authGroup, authCloudGroup, secretsGroup, kvGroup, identityGroup, operatorGroup, namespaceGroup, jobGroup, evalGroup, allocGroup, deploymentGroup, nodeGroup, systemGroup, serviceGroup, eventGroup, printGroup];

const commands: CommandSpec[] = [
  serverCommand,
  serverMembersCommand,
  statusCommand,
  uiCommand,
  versionCommand,
  ...genericCommands,
  ...tokenCommands,
  ...policyCommands,
  ...authCommands,
  ...namespaceCommands,
  runAlias,
  stopAlias,
  ...evalCommands,
  ...systemCommands,
  ...serviceCommands,
  ...eventCommands,
  ...agentCommands,
  ...printCommands,
  ...docsCommands,
];

export interface Registry {
  commands: CommandSpec[];
  groups: GroupSpec[];
}

type LazyGroup = GroupSpec & Required<Pick<GroupSpec, 'load'>>;

/**
 * The groups whose commands and subgroups are loaded on demand, from a bundle of their own. Each is in
 * `groups` above, so its parent's help lists it without loading it.
 */
const lazyGroups = groups.filter((g): g is LazyGroup => g.load !== undefined);

/**
 * Where a subtree's commands go so that listings keep the table-of-contents order: after the commands of
 * its parent group, or, for a top-level group, before the commands of the groups declared after it.
 */
function insertionPoint(list: CommandSpec[], root: GroupSpec): number {
  const parent = root.path.slice(0, -1);
  if (parent.length === 0) {
    const later = new Set(groups.slice(groups.indexOf(root) + 1).map((g) => g.path[0]));
    const before = list.findIndex((c) => c.path.length > 1 && later.has(c.path[0]));
    return before === -1 ? list.length : before;
  }
  const after = list.findLastIndex((c) => parent.every((w, i) => c.path[i] === w));
  return after === -1 ? list.length : after + 1;
}

async function withSubtrees(roots: LazyGroup[]): Promise<Registry> {
  const all: Registry = { commands: [...commands], groups: [...groups] };
  for (const root of roots) {
    const loaded: Subtree = await root.load();
    all.commands.splice(insertionPoint(all.commands, root), 0, ...loaded.commands);
    all.groups.push(...(loaded.groups ?? []));
  }
  return all;
}

/** What argv can reach: every command declared here, and the subtrees whose words argv starts with. */
export function registryFor(argv: string[]): Promise<Registry> {
  return withSubtrees(lazyGroups.filter((g) => g.path.every((w, i) => argv[i] === w)));
}

/** Every command and group, for what lists them all: the man pages, the completions, the contract tests. */
export function fullRegistry(): Promise<Registry> {
  return withSubtrees(lazyGroups);
}
