/** Nomad's system commands: maintenance of the scheduler's state. */
import { defineGroup, type CommandSpec } from '../../define.js';
import gcCommand from './gc.js';

export const systemGroup = defineGroup({
  path: ['system'],
  synopsis: 'Interact with the system API',
  description: 'Maintenance of the scheduler\'s state: garbage collection of what has finished.',
});

export const systemCommands: CommandSpec[] = [gcCommand];
