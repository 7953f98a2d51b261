/** Nomad's alloc commands: read an allocation, stop, signal or restart it. */
import { defineGroup, type CommandSpec } from '../../define.js';
import statusCommand from './status.js';
import stopCommand from './stop.js';
import signalCommand from './signal.js';
import restartCommand from './restart.js';
import execCommand from './exec.js';
import logsCommand from './logs.js';
import fsCommand from './fs.js';

export const allocGroup = defineGroup({
  path: ['alloc'],
  synopsis: 'Interact with allocations',
  description:
    'An allocation is one task group of a job placed on a node, with its tasks. Allocations may be named by ' +
    'ID or by a unique ID prefix of at least two characters.',
});

export const allocCommands: CommandSpec[] = [execCommand, fsCommand, logsCommand, restartCommand, signalCommand, statusCommand, stopCommand];
