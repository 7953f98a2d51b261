/** Nomad's agent commands: the server's own stats and its log stream. */
import type { CommandSpec } from '../../define.js';
import infoCommand from './info.js';
import monitorCommand from './monitor.js';

export const agentCommands: CommandSpec[] = [infoCommand, monitorCommand];
