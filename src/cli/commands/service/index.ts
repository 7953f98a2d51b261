/** Nomad's service commands: the services registered in svc's own registry. */
import { defineGroup, type CommandSpec } from '../../define.js';
import listCommand from './list.js';
import infoCommand from './info.js';

export const serviceGroup = defineGroup({
  path: ['service'],
  synopsis: 'Interact with registered services',
  description:
    'Services are registered while the allocations of the jobs that declare them run: each group or task ' +
    '`service` block registers one entry per allocation, with the address and port it was given.',
});

export const serviceCommands: CommandSpec[] = [listCommand, infoCommand];
