/**
 * Field schemas of the sys endpoints that the CLI also uses. Kept apart from the path handlers so the CLI
 * bundle imports these declarations without pulling in server code.
 */
import type { Fields } from '../../framework/schema/field-schema.js';

export const POLICY_NAME_FIELD: Fields = {
  name: { type: 'lowercase-string', description: 'The name of the policy. Names are case-insensitive and stored lower-cased.' },
};

/** sys/policies/acl/:name */
export const POLICY_FIELDS: Fields = {
  ...POLICY_NAME_FIELD,
  policy: {
    type: 'string',
    description: 'The policy document, in HCL or JSON, or base64-encoded HCL or JSON.',
    required: true,
  },
};

/** sys/policy/:name, the older path Vault still serves; it also takes the document as `rules`. */
export const LEGACY_POLICY_FIELDS: Fields = {
  ...POLICY_NAME_FIELD,
  policy: { type: 'string', description: 'The policy document, in HCL or JSON, or base64-encoded HCL or JSON.' },
  rules: { type: 'string', description: 'The policy document.', deprecated: 'policy' },
};

/** A mount's token_type: `default-*` lets a role choose, `service` and `batch` force the type. */
const MOUNT_TOKEN_TYPES = ['default-service', 'default-batch', 'service', 'batch'];

/** sys/auth/*path */
export const AUTH_ENABLE_FIELDS: Fields = {
  path: { type: 'string', description: 'The mount path, relative to auth/. The CLI defaults it to the method type.' },
  type: { type: 'string', description: 'The auth method type, such as "cloud".', required: true },
  description: { type: 'string', description: 'A human-friendly description of the auth method.' },
  config: {
    type: 'object',
    description: 'Mount configuration: default_lease_ttl, max_lease_ttl and token_type.',
    cli: { hidden: true },
  },
  local: { type: 'bool', description: "Mark the mount local, as Vault's local mounts (not replicated); stored and shown in reads.", cli: { hidden: true } },
  seal_wrap: { type: 'bool', description: 'Seal-wrap the mount, as Vault; stored and shown in reads.', cli: { hidden: true } },
  external_entropy_access: { type: 'bool', description: 'Give the mount external entropy, as Vault; stored and shown in reads.', cli: { hidden: true } },
  options: { type: 'map', description: 'Options for the mount, string to string, as Vault; stored and shown in reads.', cli: { hidden: true } },
};

/** The keys of the `config` object of sys/auth/*path; the CLI shows each as a flag. */
export const AUTH_MOUNT_CONFIG_FIELDS: Fields = {
  default_lease_ttl: {
    type: 'duration',
    description: 'The default lease duration of tokens issued by this mount. 0 means the system default.',
  },
  max_lease_ttl: {
    type: 'duration',
    description: 'The maximum lease duration of tokens issued by this mount. 0 means the system default.',
  },
  token_type: {
    type: 'string',
    description: 'The type of tokens the mount issues.',
    allowedValues: MOUNT_TOKEN_TYPES,
  },
};

/** sys/auth/*path/tune */
export const AUTH_TUNE_FIELDS: Fields = {
  path: { type: 'string', description: 'The mount path, relative to auth/.' },
  default_lease_ttl: {
    type: 'string',
    description: 'The default lease duration of tokens issued by this mount, such as "1h"; "system" (or 0) returns to the system default.',
  },
  max_lease_ttl: {
    type: 'string',
    description: 'The maximum lease duration of tokens issued by this mount, such as "24h"; "system" (or 0) returns to the system default.',
  },
  description: { type: 'string', description: 'A human-friendly description of the auth method.' },
  listing_visibility: {
    type: 'string',
    description: 'Whether the mount is listed to unauthenticated callers, as Vault\'s UI listing: "unauth", "hidden", or "" for the default.',
  },
  token_type: {
    type: 'string',
    description: 'The type of tokens the mount issues. Not for the token method.',
    allowedValues: MOUNT_TOKEN_TYPES,
  },
};

const PATHS_TO_CHECK: Fields = {
  path: { type: 'string', description: 'A path to check, e.g. auth/token/create. Use "paths" for several.' },
  paths: { type: 'list', description: 'The paths to check.' },
};

/** sys/capabilities-self */
export const CAPABILITIES_SELF_FIELDS: Fields = PATHS_TO_CHECK;

/** sys/capabilities */
export const CAPABILITIES_FIELDS: Fields = {
  token: { type: 'string', description: 'The token whose capabilities are checked.', required: ['update'], sensitive: true },
  ...PATHS_TO_CHECK,
};

/** sys/capabilities-accessor */
export const CAPABILITIES_ACCESSOR_FIELDS: Fields = {
  accessor: { type: 'string', description: 'The accessor of the token whose capabilities are checked.', required: ['update'] },
  ...PATHS_TO_CHECK,
};

/** sys/audit/*path */
export const AUDIT_ENABLE_FIELDS: Fields = {
  path: { type: 'string', description: 'The path of the audit device, e.g. "file".' },
  type: { type: 'string', description: 'The audit device type: "file".', required: true },
  description: { type: 'string', description: 'A human-friendly description of the audit device.' },
  options: { type: 'map', description: 'The device\'s options: file_path (required), the file the log is appended to.' },
  local: { type: 'bool', description: "Mark the device local, as Vault's local audit devices (not replicated); stored and shown." },
};
