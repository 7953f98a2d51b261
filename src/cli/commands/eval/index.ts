/** Nomad's eval commands: read and list evaluations. */
import { defineGroup, type CommandSpec } from '../../define.js';
import statusCommand from './status.js';
import listCommand from './list.js';

export const evalGroup = defineGroup({
  path: ['eval'],
  synopsis: 'Interact with evaluations',
  description:
    'An evaluation is the scheduler\'s unit of work: registering, stopping or re-evaluating a job, or a ' +
    'change of nodes, creates one, and the scheduler turns it into allocations. Its status tells whether ' +
    'every allocation could be placed, and why not. Evaluations may be named by ID or by a unique ID prefix.',
});

export const evalCommands: CommandSpec[] = [listCommand, statusCommand];
