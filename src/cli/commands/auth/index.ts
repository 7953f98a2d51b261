/** Vault's auth commands: enable, disable and list auth method mounts; the `auth cloud` group. */
import { defineGroup, type CommandSpec } from '../../define.js';
import enableCommand from './enable.js';
import disableCommand from './disable.js';
import listCommand from './list.js';
import tuneCommand from './tune.js';

export const authGroup = defineGroup({
  path: ['auth'],
  synopsis: 'Interact with auth methods',
  description:
    'Auth methods issue tokens to callers that prove who they are: "token" is always mounted at ' +
    'auth/token/, and "cloud" logs machines in with their cloud instance identity. Enabling and disabling ' +
    'a method needs "sudo" on sys/auth/<path>; disabling one revokes every token it issued.',
});

export const authCommands: CommandSpec[] = [enableCommand, disableCommand, listCommand, tuneCommand];

/**
 * Declared here rather than with its commands (commands/auth/cloud/, a bundle loaded on demand) so that
 * `svc auth -help` lists it without loading them.
 */
export const authCloudGroup = defineGroup({
  path: ['auth', 'cloud'],
  synopsis: 'Configure the cloud auth method',
  description:
    'Configure the cloud auth method mounted at auth/cloud/, or at the mount given by -path: its roles ' +
    'and role tags, its provider client and certificates, and its access and deny lists. Machines log in ' +
    'to it with their instance identity (ec2) or a signed caller-identity request (iam).',
  load: () => import('./cloud/index.js'),
});
