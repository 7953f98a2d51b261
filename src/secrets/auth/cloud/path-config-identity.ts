/**
 * auth/cloud/config/identity: which name a login's entity alias gets (role_id, unique_id or full_arn for
 * iam; role_id, instance_id or image_id for ec2) and which login facts are copied into the token's and
 * the alias's metadata. Updates are partial; a request with any invalid field changes nothing.
 */
import { UserError } from '../../../shared/errors.js';
import { definePath } from '../../framework/path.js';
import { CONFIG_IDENTITY_FIELDS, DEFAULT_METADATA, EC2_METADATA_FIELDS, IAM_METADATA_FIELDS } from './fields.js';
import { readEntry, updateEntry } from './mount-storage.js';

export interface IdentityConfig {
  iam_alias: string;
  iam_metadata: string[];
  ec2_alias: string;
  ec2_metadata: string[];
}

const ENTRY = 'config/identity';

export const DEFAULT_IDENTITY_CONFIG: IdentityConfig = { iam_alias: 'role_id', iam_metadata: DEFAULT_METADATA, ec2_alias: 'role_id', ec2_metadata: DEFAULT_METADATA };

/** `["default"]` alone means the defaults; `default` with anything else, or an unknown field, is refused. */
export function metadataFields(field: string, given: string[], available: readonly string[]): string[] {
  const names = given.map((n) => n.trim()).filter((n) => n !== '');
  if (names.includes('default')) {
    if (names.length > 1) throw new UserError(`"${field}" contains default - default can't be used in combination with other fields`);
    return DEFAULT_METADATA;
  }
  const unknown = names.filter((n) => !available.includes(n));
  if (unknown.length > 0) throw new UserError(`"${field}" contains an unavailable field (${unknown.join(', ')}), please select from ${available.join(', ')}`);
  return [...new Set(names)];
}

export function identityConfig(store: Parameters<typeof readEntry>[0], accessor: string): IdentityConfig {
  return readEntry<IdentityConfig>(store, accessor, ENTRY) ?? DEFAULT_IDENTITY_CONFIG;
}

export const configIdentityPaths = [
  definePath({
    pattern: 'config/identity',
    fields: CONFIG_IDENTITY_FIELDS,
    synopsis: 'Configure how logins map to identity entities.',
    description:
      'Chooses the name of the entity alias each login creates or updates, and which login facts are copied ' +
      'into the token and alias metadata. Choose facts that rarely change: each change is a storage write.',
    operations: {
      read: {
        summary: 'Read the identity integration configuration.',
        handler: async (req) => ({ data: { ...identityConfig(req.services.store, req.mountAccessor) } }),
      },
      update: {
        summary: 'Change the given fields; the others keep their values.',
        handler: async (req, data) => {
          // Everything is checked before anything is stored.
          const iamMetadata = data.has('iam_metadata') ? metadataFields('iam_metadata', data.get<string[]>('iam_metadata'), IAM_METADATA_FIELDS) : undefined;
          const ec2Metadata = data.has('ec2_metadata') ? metadataFields('ec2_metadata', data.get<string[]>('ec2_metadata'), EC2_METADATA_FIELDS) : undefined;
          await updateEntry<IdentityConfig>(req.services.store, req.mountAccessor, ENTRY, (current) => ({
            ...(current ?? DEFAULT_IDENTITY_CONFIG),
            ...(data.has('iam_alias') ? { iam_alias: data.get<string>('iam_alias') } : {}),
            ...(data.has('ec2_alias') ? { ec2_alias: data.get<string>('ec2_alias') } : {}),
            ...(iamMetadata ? { iam_metadata: iamMetadata } : {}),
            ...(ec2Metadata ? { ec2_metadata: ec2Metadata } : {}),
          }));
        },
      },
    },
  }),
];
