/** Nomad's node commands: the client nodes that run allocations. */
import type { CommandSpec } from '../../define.js';
import statusCommand from './status.js';
import eligibilityCommand from './eligibility.js';
import drainCommand from './drain.js';

export const commands: CommandSpec[] = [statusCommand, eligibilityCommand, drainCommand];
