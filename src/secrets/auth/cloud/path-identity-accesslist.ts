/**
 * auth/cloud/identity-accesslist/:instance_id (read, delete) and LIST auth/cloud/identity-accesslist:
 * what operators see of the instances that logged in, and how they let an instance log in afresh
 * (deleting its entry clears its nonce and its "reauthentication disallowed" state).
 *
 * A read does not return the client nonce, although Vault's does: secrets never appear in read output.
 * The nonce is the instance's re-login credential: the identity document it is paired with is readable
 * by any process on the instance and never changes, so the nonce is what stops a copied document from
 * being replayed. Showing it would turn read access on this path into the power to log in as every
 * listed instance. Operators do not need it: the way to recover an instance that lost its nonce is to
 * delete its entry.
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
        summary: "Read an instance's entry (without its nonce).",
        handler: async (req, data) => {
          const entry = readAccessListEntry(req.services, req.mountAccessor, data.get<string>('instance_id'));
          if (!entry) throw new NotFound();
          return {
            data: {
              role: entry.role,
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
