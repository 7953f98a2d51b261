/**
 * Vault's kv commands. A bundle of its own (dist/cli-kv.cjs) that src/cli/registry.ts loads when argv
 * starts with `kv`, or when every command is listed.
 */
import { defineGroup, type CommandSpec, type GroupSpec } from '../../define.js';
import putCommand from './put.js';
import getCommand from './get.js';
import patchCommand from './patch.js';
import deleteCommand from './delete.js';
import undeleteCommand from './undelete.js';
import destroyCommand from './destroy.js';
import listCommand from './list.js';
import metadataGetCommand from './metadata-get.js';
import metadataPutCommand from './metadata-put.js';
import metadataPatchCommand from './metadata-patch.js';
import metadataDeleteCommand from './metadata-delete.js';
import enableVersioningCommand from './enable-versioning.js';

export { kvGroup } from './group.js';

export const groups: GroupSpec[] = [
  defineGroup({
    path: ['kv', 'metadata'],
    synopsis: 'Interact with the metadata of the KV secrets engine',
    description: 'A version 2 key\'s metadata: the versions kept and their times, whether writes need check-and-set, when versions are deleted, and custom metadata.',
  }),
];

export const commands: CommandSpec[] = [
  putCommand,
  getCommand,
  patchCommand,
  deleteCommand,
  undeleteCommand,
  destroyCommand,
  listCommand,
  metadataGetCommand,
  metadataPutCommand,
  metadataPatchCommand,
  metadataDeleteCommand,
  enableVersioningCommand,
];
