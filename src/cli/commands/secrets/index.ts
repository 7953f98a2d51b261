/**
 * Vault's secrets commands: enable, disable, list, tune and move secrets engine mounts. A bundle of its
 * own (dist/cli-secrets.cjs) that src/cli/registry.ts loads when argv starts with `secrets`, or when
 * every command is listed.
 */
import type { CommandSpec } from '../../define.js';
import enableCommand from './enable.js';
import disableCommand from './disable.js';
import listCommand from './list.js';
import tuneCommand from './tune.js';
import moveCommand from './move.js';

export { secretsGroup } from './group.js';

export const commands: CommandSpec[] = [enableCommand, disableCommand, listCommand, tuneCommand, moveCommand];
