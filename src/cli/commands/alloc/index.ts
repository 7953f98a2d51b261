/**
 * Nomad's alloc commands: read an allocation, its logs and files, exec into it, stop, signal or restart
 * it. A bundle of its own (dist/cli-alloc.cjs) that src/cli/registry.ts loads when argv starts with
 * `alloc`, or when every command is listed; the group itself (group.ts) stays in the start-up bundle.
 */
import type { CommandSpec } from '../../define.js';
import statusCommand from './status.js';
import checksCommand from './checks.js';
import stopCommand from './stop.js';
import signalCommand from './signal.js';
import restartCommand from './restart.js';
import pauseCommand from './pause.js';
import execCommand from './exec.js';
import logsCommand from './logs.js';
import fsCommand from './fs.js';

export { allocGroup } from './group.js';

export const commands: CommandSpec[] = [checksCommand, execCommand, fsCommand, logsCommand, pauseCommand, restartCommand, signalCommand, statusCommand, stopCommand];
