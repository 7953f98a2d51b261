/** Vault's auth commands: enable, disable and list auth method mounts. */
import { defineGroup, type CommandSpec } from '../../define.js';
import enableCommand from './enable.js';
import disableCommand from './disable.js';
import listCommand from './list.js';

export const authGroup = defineGroup({
  path: ['auth'],
  synopsis: 'Interact with auth methods',
  description:
    'Auth methods issue tokens to callers that prove who they are: "token" is always mounted at ' +
    'auth/token/, and "cloud" logs machines in with their cloud instance identity. Enabling and disabling ' +
    'a method needs "sudo" on sys/auth/<path>; disabling one revokes every token it issued.',
});

export const authCommands: CommandSpec[] = [enableCommand, disableCommand, listCommand];
