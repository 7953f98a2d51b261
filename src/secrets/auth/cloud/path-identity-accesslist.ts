/**
 * auth/cloud/identity-accesslist/:instance_id (read, delete) and LIST auth/cloud/identity-accesslist:
 * what operators see of the instances that logged in, and how they let an instance log in afresh
 * (deleting its entry clears its nonce and its "reauthentication disallowed" state).
 *
 * A read returns the entry's client nonce, as Vault's does: the nonce is the instance's re-login
 * credential, so read access to this path is as strong as logging in as every listed instance, and
 * policies grant it accordingly. It is sealed at rest and opened only for such a read or a login.
 */
import { NotFound } from '../../../shared/errors.js';
import { definePath } from '../../framework/path.js';
import { INSTANCE_ID_FIELDS } from './fields.js';
import { deleteAccessListEntry, listAccessListIds, readAccessListEntry } from './access-list.js';

export const identityAccessListPaths = [
  definePath({
    pattern: 'identity-accesslist',
    fields: {},
    synopsis: 'List the instances in the identity access list.',
    description: 'Lists the IDs of the instances that logged in with ec2 and still have an access list entry.',
    operations: {
      list: {
        summary: 'List instance IDs.',
        handler: async (req) => {
          const keys = listAccessListIds(req.services, req.mountAccessor);
          if (keys.length === 0) throw new NotFound();
          return { data: { keys } };
        },
      },
    },
  }),
  definePath({
    pattern: 'identity-accesslist/:instance_id',
    fields: INSTANCE_ID_FIELDS,
    synopsis: "Read or remove an instance's access list entry.",
    description:
      'Each successful ec2 login creates or updates the entry of its instance. Removing it lets the instance log in ' +
      'again without its nonce, also when reauthentication was disallowed.',
    operations: {
      read: {
        summary: "Read an instance's entry, its client nonce included.",
        handler: async (req, data) => {
          const entry = readAccessListEntry(req.services, req.mountAccessor, data.get<string>('instance_id'));
          if (!entry) throw new NotFound();
          return {
            data: {
              role: entry.role,
              client_nonce: entry.client_nonce,
              creation_time: entry.creation_time,
              disallow_reauthentication: entry.disallow_reauthentication,
              pending_time: entry.pending_time,
              expiration_time: entry.expiration_time,
              last_updated_time: entry.last_updated_time,
            },
          };
        },
      },
      delete: {
        summary: "Remove an instance's entry.",
        handler: async (req, data) => deleteAccessListEntry(req.services, req.mountAccessor, data.get<string>('instance_id')),
      },
    },
  }),
];
