/** Vault's print commands: what the CLI itself would use, for scripts. */
import { defineGroup, type CommandSpec } from '../../define.js';
import tokenCommand from './token.js';
import cloudEndpointCommand from './cloud-endpoint.js';

export const printGroup = defineGroup({
  path: ['print'],
  synopsis: 'Print values the CLI uses',
  description: 'Prints values the CLI would use for its requests, for use in scripts (`$(svc print token)`).',
});

export const printCommands: CommandSpec[] = [tokenCommand, cloudEndpointCommand];
