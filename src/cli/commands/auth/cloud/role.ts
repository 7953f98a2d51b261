/** `svc auth cloud role write|read|list|delete`: the roles machines log in to. */
import { ROLE_FIELDS } from '../../../../secrets/auth/cloud/fields.js';
import type { ArgSpec } from '../../../define.js';
import { endpointCommand } from './endpoint-command.js';

const role: ArgSpec = { name: 'name', description: 'Name of the role; names differing only in case are the same role.', required: true, complete: 'role' };

export const roleCommands = [
  endpointCommand({
    words: ['role', 'write'],
    method: 'POST',
    endpoint: 'role/:role',
    fields: ROLE_FIELDS,
    args: [role],
    synopsis: 'Create or update a role',
    description:
      'Creates the role NAME, or changes the flags given on an existing one (POST auth/<mount>/role/NAME). ' +
      'A role binds who may log in (at least one -bound-* constraint, each a list of which one value must ' +
      'match) to the tokens they get (-token-*). iam roles check -bound-iam-principal-arn; ec2 roles, and ' +
      'iam roles with -inferred-entity-type=ec2_instance, check the instance constraints. A constraint the ' +
      'role\'s auth type does not check is refused. List flags take a comma-separated list or may be ' +
      'repeated.',
    examples: [
      {
        command: 'svc auth cloud role write -auth-type=iam -bound-iam-principal-arn=arn:aws:iam::123456789012:role/ci -token-policies=ci -token-ttl=1h ci',
        description: 'Let the ci role of an account log in with iam and get the "ci" policy for an hour',
      },
      {
        command: 'svc auth cloud role write -auth-type=ec2 -bound-ami-id=ami-0abc,ami-0def -bound-region=us-east-1 -policy=web web',
        description: 'Let instances of two images log in with their identity document',
      },
    ],
    ok: 'the role was written',
    failed: 'a server error, such as a constraint the auth type does not check',
  }),
  endpointCommand({
    words: ['role', 'read'],
    method: 'GET',
    endpoint: 'role/:role',
    args: [role],
    synopsis: 'Print a role',
    description: 'Prints the role NAME: its constraints and token settings (GET auth/<mount>/role/NAME).',
    examples: [{ command: 'svc auth cloud role read -format=json web' }],
    ok: 'the role was printed',
    failed: 'a server error, or no such role',
  }),
  endpointCommand({
    words: ['role', 'list'],
    method: 'LIST',
    endpoint: 'roles',
    synopsis: 'List the roles',
    description: 'Lists the role names (LIST auth/<mount>/roles). When there are none it says "No value found" and exits 2.',
    examples: [{ command: 'svc auth cloud role list' }],
    ok: 'the roles were listed',
    failed: 'a server error, or no roles',
  }),
  endpointCommand({
    words: ['role', 'delete'],
    method: 'DELETE',
    endpoint: 'role/:role',
    args: [role],
    synopsis: 'Delete a role',
    description: 'Deletes the role NAME (DELETE auth/<mount>/role/NAME): no machine can log in to it any more.',
    examples: [{ command: 'svc auth cloud role delete web' }],
    ok: 'the role was deleted, or did not exist',
  }),
];
