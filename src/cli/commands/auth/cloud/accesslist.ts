/**
 * `svc auth cloud accesslist read|list|delete`: the instances that have logged in with ec2. Entries are
 * made by logins only; deleting one lets an instance of a role that disallows reauthentication log in
 * again.
 */
import type { ArgSpec } from '../../../define.js';
import { endpointCommand } from './endpoint-command.js';

const instance: ArgSpec = { name: 'instance_id', description: 'ID of the instance, such as i-0123456789abcdef0.', required: true, complete: 'accesslist' };

export const accesslistCommands = [
  endpointCommand({
    words: ['accesslist', 'read'],
    method: 'GET',
    endpoint: 'identity-accesslist/:instance_id',
    args: [instance],
    synopsis: 'Print an access list entry',
    description:
      'Prints the access list entry of INSTANCE_ID (GET auth/<mount>/identity-accesslist/INSTANCE_ID): ' +
      'its role, its client nonce (as Vault prints it), the first and last login, its expiry and pending time.',
    examples: [{ command: 'svc auth cloud accesslist read i-0123456789abcdef0' }],
    ok: 'the entry was printed',
    failed: 'a server error, or no entry for the instance',
  }),
  endpointCommand({
    words: ['accesslist', 'list'],
    method: 'LIST',
    endpoint: 'identity-accesslist',
    synopsis: 'List the instances on the access list',
    description: 'Lists the IDs of the instances that have logged in (LIST auth/<mount>/identity-accesslist). When there are none it says "No value found" and exits 2.',
    examples: [{ command: 'svc auth cloud accesslist list' }],
    ok: 'the instances were listed',
    failed: 'a server error, or an empty access list',
  }),
  endpointCommand({
    words: ['accesslist', 'delete'],
    method: 'DELETE',
    endpoint: 'identity-accesslist/:instance_id',
    args: [instance],
    synopsis: 'Remove an instance from the access list',
    description:
      'Removes the access list entry of INSTANCE_ID, with its nonce: the instance may then log in again ' +
      'without the nonce, even when its role disallows reauthentication.',
    examples: [{ command: 'svc auth cloud accesslist delete i-0123456789abcdef0' }],
    ok: 'the entry was removed, or did not exist',
  }),
];
