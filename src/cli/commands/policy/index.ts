/** Vault's policy commands: write, read, list and delete ACL policies, and format policy files. */
import { defineGroup, type CommandSpec } from '../../define.js';
import writeCommand from './write.js';
import readCommand from './read.js';
import listCommand from './list.js';
import deleteCommand from './delete.js';
import fmtCommand from './fmt.js';

export const policyGroup = defineGroup({
  path: ['policy'],
  synopsis: 'Interact with policies',
  description:
    'Policies decide what a token may do: `path` rules for the secrets API and `namespace` rules for the ' +
    'scheduler API. Every token has one or more policies; "root" allows everything and "default" lets a ' +
    'token look after itself. Policies are written in HCL or JSON; see examples/policies/.',
});

export const policyCommands: CommandSpec[] = [writeCommand, readCommand, listCommand, deleteCommand, fmtCommand];
