/** Nomad's node commands: the client nodes that run allocations. */
import { defineGroup, type CommandSpec } from '../../define.js';
import statusCommand from './status.js';
import eligibilityCommand from './eligibility.js';
import drainCommand from './drain.js';

export const nodeGroup = defineGroup({
  path: ['node'],
  synopsis: 'Interact with nodes',
  description:
    'Nodes are the machines that run allocations: `svc server` runs one in the same process. Nodes may be ' +
    'named by ID or by a unique ID prefix. Reading nodes needs a management token.',
});

export const nodeCommands: CommandSpec[] = [statusCommand, eligibilityCommand, drainCommand];
