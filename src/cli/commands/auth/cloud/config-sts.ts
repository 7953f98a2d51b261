/** `svc auth cloud config sts write|read|delete|list`: the role the server assumes to reach another account. */
import { CONFIG_STS_FIELDS } from '../../../../secrets/auth/cloud/fields.js';
import type { ArgSpec } from '../../../define.js';
import { endpointCommand } from './endpoint-command.js';

const account: ArgSpec = { name: 'account_id', description: 'The 12-digit ID of the account.', required: true, complete: 'sts-account' };

export const configStsCommands = [
  endpointCommand({
    words: ['config', 'sts', 'write'],
    method: 'POST',
    endpoint: 'config/sts/:account_id',
    fields: CONFIG_STS_FIELDS,
    args: [account],
    synopsis: 'Set the role to assume for an account',
    description:
      'Sets the role the server assumes to look up instances and principals of ACCOUNT_ID (POST ' +
      'auth/<mount>/config/sts/ACCOUNT_ID). The server\'s own credentials must be allowed to assume it.',
    examples: [{ command: 'svc auth cloud config sts write -sts-role=arn:aws:iam::210987654321:role/svc-reader 210987654321' }],
    ok: 'the role was set',
  }),
  endpointCommand({
    words: ['config', 'sts', 'read'],
    method: 'GET',
    endpoint: 'config/sts/:account_id',
    args: [account],
    synopsis: 'Print the role assumed for an account',
    description: 'Prints the role the server assumes for ACCOUNT_ID.',
    examples: [{ command: 'svc auth cloud config sts read -field=sts_role 210987654321' }],
    ok: 'the role was printed',
    failed: 'a server error, or no role for the account',
  }),
  endpointCommand({
    words: ['config', 'sts', 'delete'],
    method: 'DELETE',
    endpoint: 'config/sts/:account_id',
    args: [account],
    synopsis: 'Stop assuming a role for an account',
    description: 'Removes the role set for ACCOUNT_ID; the server then calls that account with its own credentials.',
    examples: [{ command: 'svc auth cloud config sts delete 210987654321' }],
    ok: 'the role was removed, or there was none',
  }),
  endpointCommand({
    words: ['config', 'sts', 'list'],
    method: 'LIST',
    endpoint: 'config/sts',
    synopsis: 'List the accounts with a role to assume',
    description: 'Lists the account IDs that have a role set (LIST auth/<mount>/config/sts). When there are none it says "No value found" and exits 2.',
    examples: [{ command: 'svc auth cloud config sts list' }],
    ok: 'the accounts were listed',
    failed: 'a server error, or no accounts',
  }),
];
