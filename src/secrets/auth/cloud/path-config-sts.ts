/**
 * auth/cloud/config/sts/:account_id: the role to assume for instances and principals of another account
 * (a satellite account), and LIST auth/cloud/config/sts for the accounts that have one.
 */
import { NotFound, UserError } from '../../../shared/errors.js';
import { definePath } from '../../framework/path.js';
import { CONFIG_STS_FIELDS } from './fields.js';
import { deleteEntry, listEntries, readEntry, writeEntry } from './mount-storage.js';

const ACCOUNT_ID = /^\d{12}$/;
/** An IAM role ARN in any partition: arn:<partition>:iam::<account>:role/<path/><name>. */
const ROLE_ARN = /^arn:[a-z-]+:iam::\d{12}:role\/.+$/;

const entry = (account: string) => `config/sts/${account}`;

function accountOf(raw: string): string {
  if (!ACCOUNT_ID.test(raw)) throw new UserError(`account_id "${raw}" must be a 12-digit account ID`);
  return raw;
}

export function stsRoleFor(store: Parameters<typeof readEntry>[0], accessor: string, account: string): string | undefined {
  return readEntry<{ sts_role: string }>(store, accessor, entry(account))?.sts_role;
}

export const configStsPaths = [
  definePath({
    pattern: 'config/sts',
    fields: {},
    synopsis: 'List the accounts that have an STS role.',
    description: 'Lists the account IDs for which an STS role to assume is configured.',
    operations: {
      list: {
        summary: 'List account IDs.',
        handler: async (req) => {
          const keys = listEntries(req.services.store, req.mountAccessor, 'config/sts');
          if (keys.length === 0) throw new NotFound();
          return { data: { keys } };
        },
      },
    },
  }),
  definePath({
    pattern: 'config/sts/:account_id',
    fields: CONFIG_STS_FIELDS,
    synopsis: 'Configure the STS role of an account.',
    description:
      'For a satellite account (not the one the server runs in), instances and principals are looked up with ' +
      'credentials obtained by assuming this role.',
    operations: {
      read: {
        summary: 'Read the STS role of an account.',
        handler: async (req, data) => {
          const role = stsRoleFor(req.services.store, req.mountAccessor, accountOf(data.get<string>('account_id')));
          if (role === undefined) throw new NotFound();
          return { data: { sts_role: role } };
        },
      },
      update: {
        summary: 'Set the STS role of an account.',
        handler: async (req, data) => {
          const account = accountOf(data.get<string>('account_id'));
          const role = data.get<string>('sts_role').trim();
          if (!ROLE_ARN.test(role)) throw new UserError(`sts_role "${role}" is not a role ARN (arn:<partition>:iam::<account>:role/<name>)`);
          await writeEntry(req.services.store, req.mountAccessor, entry(account), { sts_role: role });
        },
      },
      delete: {
        summary: 'Remove the STS role of an account.',
        handler: async (req, data) => {
          await deleteEntry(req.services.store, req.mountAccessor, entry(accountOf(data.get<string>('account_id'))));
        },
      },
    },
  }),
];
