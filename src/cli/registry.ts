/**
 * Every command and group of the CLI, in one ordered list: the CLI's table of contents. Help, the man
 * pages and the completions are generated from it. Command modules are small; each imports what is
 * heavy inside its `run`, so loading this list stays fast.
 */
import type { CommandSpec, GroupSpec } from './define.js';
import serverCommand from './commands/server.js';
import statusCommand from './commands/status.js';
import versionCommand from './commands/version.js';
import { genericCommands } from './commands/generic/index.js';
import { tokenGroup, tokenCommands } from './commands/token/index.js';
import { policyGroup, policyCommands } from './commands/policy/index.js';
import { authGroup, authCommands } from './commands/auth/index.js';
import { identityGroups, identityCommands } from './commands/identity/index.js';
import { namespaceGroup, namespaceCommands } from './commands/namespace/index.js';
import { docsCommands } from './commands/docs/index.js';
import { jobGroup, jobCommands, runAlias, stopAlias } from './commands/job/index.js';
import { evalGroup, evalCommands } from './commands/eval/index.js';
import { allocGroup, allocCommands } from './commands/alloc/index.js';
import { nodeGroup, nodeCommands } from './commands/node/index.js';
import { deploymentGroup, deploymentCommands } from './commands/deployment/index.js';

export const groups: GroupSpec[] = [tokenGroup, policyGroup, authGroup, ...identityGroups, namespaceGroup, jobGroup, evalGroup, allocGroup, deploymentGroup, nodeGroup];

export const commands: CommandSpec[] = [
  serverCommand,
  statusCommand,
  versionCommand,
  ...genericCommands,
  ...tokenCommands,
  ...policyCommands,
  ...authCommands,
  ...identityCommands,
  ...namespaceCommands,
  ...jobCommands,
  runAlias,
  stopAlias,
  ...evalCommands,
  ...allocCommands,
  ...deploymentCommands,
  ...nodeCommands,
  ...docsCommands,
];
