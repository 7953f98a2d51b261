/** Nomad's node commands: the client nodes that run allocations. */
import type { CommandSpec } from '../../define.js';
import statusCommand from './status.js';
import eligibilityCommand from './eligibility.js';
import drainCommand from './drain.js';

export const nodeCommands: CommandSpec[] = [statusCommand, eligibilityCommand, drainCommand];
