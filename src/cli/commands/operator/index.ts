/** Vault's operator commands: the cluster's servers. */
import { defineGroup, type CommandSpec } from '../../define.js';
import membersCommand from './members.js';

export const operatorGroup = defineGroup({
  path: ['operator'],
  synopsis: 'Perform operator-specific tasks',
  description: 'Look after the cluster itself: which servers it has and which of them leads.',
});

export const operatorCommands: CommandSpec[] = [membersCommand];
