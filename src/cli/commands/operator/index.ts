/** The operator commands: the cluster's servers (Vault's members) and the server's metrics (Nomad's metrics). */
import type { CommandSpec } from '../../define.js';
import membersCommand from './members.js';
import metricsCommand from './metrics.js';

export const commands: CommandSpec[] = [membersCommand, metricsCommand];
