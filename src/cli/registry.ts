/**
 * Every command and group of the CLI, in one ordered list: the CLI's table of contents. Help, the man
 * pages and the completions are generated from it. Command modules are small; each imports what is
 * heavy inside its `run`, so loading this list stays fast. A subtree whose declarations alone are too
 * large for every start lives in a bundle of its own (LAZY_SUBTREES), so the full list is reached
 * through `registryFor(argv)` and `fullRegistry()`.
 */
import type { CommandSpec, GroupSpec } from './define.js';
import serverCommand from './commands/server.js';
import serverMembersCommand from './commands/server-members.js';
import statusCommand from './commands/status.js';
import versionCommand from './commands/version.js';
import { genericCommands } from './commands/generic/index.js';
import { tokenGroup, tokenCommands } from './commands/token/index.js';
import { policyGroup, policyCommands } from './commands/policy/index.js';
import { authGroup, authCloudGroup, authCommands } from './commands/auth/index.js';
import { identityGroup } from './commands/identity/group.js';
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
import { agentCommands } from './commands/agent/index.js';
import { printGroup, printCommands } from './commands/print/index.js';
import { operatorGroup, operatorCommands } from './commands/operator/index.js';

const groups: GroupSpec[] = [tokenGroup, policyGroup, authGroup, authCloudGroup, identityGroup, operatorGroup, namespaceGroup, jobGroup, evalGroup, allocGroup, deploymentGroup, nodeGroup, systemGroup, serviceGroup, printGroup];

const commands: CommandSpec[] = [
  serverCommand,
  serverMembersCommand,
  statusCommand,
  versionCommand,
  ...genericCommands,
  ...tokenCommands,
  ...policyCommands,
  ...authCommands,
  ...operatorCommands,
  ...namespaceCommands,
  runAlias,
  stopAlias,
  ...evalCommands,
  ...systemCommands,
  ...serviceCommands,
  ...agentCommands,
  ...printCommands,
  ...docsCommands,
];

export interface Registry {
  commands: CommandSpec[];
  groups: GroupSpec[];
}

/**
 * A subtree whose groups and commands are loaded on demand, from a bundle of its own (scripts/build.mjs).
 * Its root group is in `groups` above, so its parent's help lists it without loading it.
 */
interface LazySubtree {
  root: GroupSpec;
  load(): Promise<Registry>;
}

const LAZY_SUBTREES: LazySubtree[] = [
  { root: authCloudGroup, load: () => import('./commands/auth/cloud/index.js') },
  // The scheduler's two largest groups: their declarations are most of what the CLI would parse at start.
  { root: jobGroup, load: async () => { const m = await import('./commands/job/index.js'); return { commands: m.jobCommands, groups: m.jobGroups }; } },
  { root: allocGroup, load: async () => ({ commands: (await import('./commands/alloc/index.js')).allocCommands, groups: [] }) },
  { root: deploymentGroup, load: async () => ({ commands: (await import('./commands/deployment/index.js')).deploymentCommands, groups: [] }) },
  { root: identityGroup, load: async () => { const m = await import('./commands/identity/index.js'); return { commands: m.identityCommands, groups: m.identitySubgroups }; } },
  { root: nodeGroup, load: async () => ({ commands: (await import('./commands/node/index.js')).nodeCommands, groups: [] }) },
];

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

async function withSubtrees(subtrees: LazySubtree[]): Promise<Registry> {
  const all: Registry = { commands: [...commands], groups: [...groups] };
  for (const tree of subtrees) {
    const loaded = await tree.load();
    all.commands.splice(insertionPoint(all.commands, tree.root), 0, ...loaded.commands);
    all.groups.push(...loaded.groups);
  }
  return all;
}

/** What argv can reach: every command declared here, and the subtrees whose words argv starts with. */
export function registryFor(argv: string[]): Promise<Registry> {
  return withSubtrees(LAZY_SUBTREES.filter((t) => t.root.path.every((w, i) => argv[i] === w)));
}

/** Every command and group, for what lists them all: the man pages, the completions, the contract tests. */
export function fullRegistry(): Promise<Registry> {
  return withSubtrees(LAZY_SUBTREES);
}
