/** Nomad's agent commands: a node that joins servers elsewhere, and the server's own stats and log stream. */
import type { CommandSpec } from '../../define.js';
import agentCommand from './agent.js';
import infoCommand from './info.js';
import monitorCommand from './monitor.js';

export const agentCommands: CommandSpec[] = [agentCommand, infoCommand, monitorCommand];
