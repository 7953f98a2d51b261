/** Nomad's namespace commands: list, apply and delete scheduler namespaces. */
import { defineGroup, type CommandSpec } from '../../define.js';
import listCommand from './list.js';
import applyCommand from './apply.js';
import deleteCommand from './delete.js';
import statusCommand from './status.js';

export const namespaceGroup = defineGroup({
  path: ['namespace'],
  synopsis: 'Interact with scheduler namespaces',
  description:
    'Namespaces partition the scheduler\'s jobs, allocations and evaluations. The "default" namespace ' +
    'always exists. Creating, updating and deleting namespaces needs a management token; listing shows ' +
    'the namespaces the token can access.',
});

export const namespaceCommands: CommandSpec[] = [listCommand, statusCommand, applyCommand, deleteCommand];
