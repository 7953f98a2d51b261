/**
 * auth/cloud/roletag-denylist/:role_tag (write, read, delete) and LIST auth/cloud/roletag-denylist.
 *
 * The tag is the rest of the path, since a tag (or its standard base64) can hold '/'. Every operation
 * takes it as is or base64-encoded — Vault decodes only on write, so a tag deny-listed in base64 there
 * cannot be read or removed in the same form.
 */
import { NotFound } from '../../../shared/errors.js';
import { definePath } from '../../framework/path.js';
import { ROLE_TAG_PATH_FIELDS } from './fields.js';
import { deleteDenyListEntry, denyListTag, listDenyListedTags, readDenyListEntry, tagFromPathValue } from './deny-list.js';

export const roleTagDenyListPaths = [
  definePath({
    pattern: 'roletag-denylist',
    fields: {},
    synopsis: 'List the deny-listed role tags.',
    description: 'Lists the role tags that can no longer be used to log in.',
    operations: {
      list: {
        summary: 'List deny-listed tags.',
        handler: async (req) => {
          const keys = listDenyListedTags(req.services, req.mountAccessor);
          if (keys.length === 0) throw new NotFound();
          return { data: { keys } };
        },
      },
    },
  }),
  definePath({
    pattern: 'roletag-denylist/*role_tag',
    fields: ROLE_TAG_PATH_FIELDS,
    synopsis: 'Deny-list a role tag, read or remove its entry.',
    description:
      'A deny-listed role tag cannot be used by any instance to log in again; tokens already issued with it stay ' +
      'valid. The tag is given in the path, as is or base64-encoded (the URL-safe alphabet avoids "/").',
    operations: {
      update: {
        summary: 'Deny-list a role tag (its signature must verify).',
        handler: async (req, data) => {
          await denyListTag(req.services, req.mountAccessor, tagFromPathValue(data.get<string>('role_tag')));
        },
      },
      read: {
        summary: "Read a deny-listed tag's entry.",
        handler: async (req, data) => {
          const entry = readDenyListEntry(req.services, req.mountAccessor, tagFromPathValue(data.get<string>('role_tag')));
          if (!entry) throw new NotFound();
          return { data: { creation_time: entry.creation_time, expiration_time: entry.expiration_time } };
        },
      },
      delete: {
        summary: 'Remove a tag from the deny list.',
        handler: async (req, data) => deleteDenyListEntry(req.services, req.mountAccessor, tagFromPathValue(data.get<string>('role_tag'))),
      },
    },
  }),
];
