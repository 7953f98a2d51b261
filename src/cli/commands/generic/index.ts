/** Vault's generic commands: read, write, patch, list and delete at any path of the secrets API. */
import type { CommandSpec } from '../../define.js';
import readCommand from './read.js';
import writeCommand from './write.js';
import patchCommand from './patch.js';
import listCommand from './list.js';
import deleteCommand from './delete.js';

export const genericCommands: CommandSpec[] = [readCommand, writeCommand, patchCommand, listCommand, deleteCommand];
