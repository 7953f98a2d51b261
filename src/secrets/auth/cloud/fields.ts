/**
 * Field schemas of every auth/cloud endpoint. The server's paths validate with them and the `svc auth
 * cloud` commands generate their flags from them, so this file must stay free of server code.
 */
import type { Fields } from '../../../framework/schema/field-schema.js';
import { ROLE_TOKEN_FIELDS } from '../token-fields.js';

export const IAM_ALIASES = ['role_id', 'unique_id', 'full_arn'] as const;
export const EC2_ALIASES = ['role_id', 'instance_id', 'image_id'] as const;
export const DEFAULT_METADATA = ['account_id', 'auth_type'];
export const IAM_METADATA_FIELDS = [...DEFAULT_METADATA, 'canonical_arn', 'client_arn', 'client_user_id', 'inferred_cloud_region', 'inferred_entity_id', 'inferred_entity_type'];
export const EC2_METADATA_FIELDS = [...DEFAULT_METADATA, 'ami_id', 'instance_id', 'region'];
export const CERTIFICATE_TYPES = ['pkcs7', 'identity'] as const;
export const AUTH_TYPES = ['ec2', 'iam'] as const;

/** Vault's default safety buffer (72h) for both lists and both tidy operations. */
export const DEFAULT_SAFETY_BUFFER_SECONDS = 72 * 3600;

export const CONFIG_CLIENT_FIELDS: Fields = {
  max_retries: { type: 'int', default: -1, description: 'Retries of a provider call after throttling or a server error; -1 means the library default (3).' },
  access_key: { type: 'string', description: 'Access key the server queries the provider with. Without one: CLOUD_ACCESS_KEY, then the instance metadata service.' },
  secret_key: { type: 'string', sensitive: true, description: 'Secret key of access_key. Stored encrypted and never returned.' },
  endpoint: { type: 'string', description: 'URL of the compute API, instead of the one generated from the region.' },
  iam_endpoint: { type: 'string', description: 'URL of the identity (IAM) API, instead of the generated one.' },
  sts_endpoint: { type: 'string', description: 'URL of the token service (STS), instead of the global one; set sts_region with it.' },
  sts_region: { type: 'string', description: 'Region of sts_endpoint; set it only together with sts_endpoint.' },
  use_sts_region_from_client: {
    type: 'bool',
    default: false,
    description: "On iam logins, send the caller-identity request to the token service of the region the client signed for, instead of sts_endpoint.",
  },
  iam_server_id_header_value: {
    type: 'string',
    description:
      "When set, iam logins must carry header X-Svc-Cloud-IAM-Server-ID (or Vault's X-Vault-AWS-IAM-Server-ID) with this value, signed: it stops a signed request from being replayed to another server.",
  },
  allowed_sts_header_values: {
    type: 'list',
    description: 'Request headers allowed in iam logins besides the ones a caller-identity request needs.',
  },
};

export const CONFIG_IDENTITY_FIELDS: Fields = {
  iam_alias: { type: 'string', description: 'What names the entity alias of an iam login: role_id, unique_id or full_arn.', allowedValues: IAM_ALIASES },
  iam_metadata: {
    type: 'list',
    valueAliases: { inferred_aws_region: 'inferred_cloud_region' },
    description: `Login facts copied to the token and alias metadata on iam logins: "default" (${DEFAULT_METADATA.join(', ')}), [] for none, or a list of: ${IAM_METADATA_FIELDS.join(', ')}.`,
  },
  ec2_alias: { type: 'string', description: 'What names the entity alias of an ec2 login: role_id, instance_id or image_id.', allowedValues: EC2_ALIASES },
  ec2_metadata: {
    type: 'list',
    description: `Login facts copied to the token and alias metadata on ec2 logins: "default" (${DEFAULT_METADATA.join(', ')}), [] for none, or a list of: ${EC2_METADATA_FIELDS.join(', ')}.`,
  },
};

export const CERT_NAME_FIELDS: Fields = {
  cert_name: { type: 'string', description: 'Name of the certificate.', required: true },
};

export const CONFIG_CERTIFICATE_FIELDS: Fields = {
  ...CERT_NAME_FIELDS,
  cloud_public_cert: { type: 'string', aliases: ['aws_public_cert'], description: 'The certificate: PEM, or base64 of the PEM.', required: ['create', 'update'] },
  type: {
    type: 'lowercase-string',
    default: 'pkcs7',
    allowedValues: CERTIFICATE_TYPES,
    description: 'What it verifies: "pkcs7" (the pkcs7 and rsa2048 documents) or "identity" (the identity document\'s raw signature).',
  },
};

export const ACCOUNT_FIELDS: Fields = {
  account_id: { type: 'string', description: 'The 12-digit ID of the account the role gives access to.', required: true },
};

export const CONFIG_STS_FIELDS: Fields = {
  ...ACCOUNT_FIELDS,
  sts_role: { type: 'string', description: 'ARN of the role to assume for that account; the server must be allowed to assume it.', required: ['create', 'update'] },
};

export function configTidyFields(what: string): Fields {
  return {
    safety_buffer: { type: 'duration', default: DEFAULT_SAFETY_BUFFER_SECONDS, description: `How long past its expiry an entry of the ${what} is kept before tidy removes it (seconds or a duration such as "72h").` },
    disable_periodic_tidy: { type: 'bool', default: false, description: `Do not tidy the ${what} periodically.` },
  };
}

export const ROLE_NAME_FIELDS: Fields = {
  role: { type: 'lowercase-string', key: true, description: 'Name of the role; names differing only in case are the same role.', required: true },
};

const ec2Only = 'Checked on ec2 logins, and on iam logins that infer an instance.';

export const ROLE_FIELDS: Fields = {
  ...ROLE_NAME_FIELDS,
  auth_type: {
    type: 'lowercase-string',
    allowedValues: AUTH_TYPES,
    description: 'How members log in: "iam" (a signed caller-identity request; the default) or "ec2" (a signed instance identity document). Cannot change once set.',
  },
  bound_ami_id: { type: 'list', description: `Image IDs the instance must use one of. ${ec2Only}` },
  bound_account_id: { type: 'list', description: `Account IDs the instance must belong to one of. ${ec2Only}` },
  bound_region: { type: 'list', description: 'Regions the instance must run in one of: the identity document\'s on ec2 logins, inferred_cloud_region on iam logins that infer an instance.' },
  bound_vpc_id: { type: 'list', description: `VPC IDs the instance must be in one of. ${ec2Only}` },
  bound_subnet_id: { type: 'list', description: `Subnet IDs the instance must be in one of. ${ec2Only}` },
  bound_iam_role_arn: {
    type: 'list',
    description: `ARNs of the role of the instance's profile, one of which must match; a trailing "*" matches a prefix. Needs iam:GetInstanceProfile. ${ec2Only}`,
  },
  bound_iam_instance_profile_arn: { type: 'list', description: `Instance profile ARNs, one of which must match; a trailing "*" matches a prefix. ${ec2Only}` },
  bound_ec2_instance_id: { type: 'list', description: `Instance IDs the instance must be one of. ${ec2Only}` },
  role_tag: {
    type: 'string',
    description: 'Key of the instance tag that holds a role tag; empty disables role tags. Only for ec2 roles; at most 127 characters.',
  },
  bound_iam_principal_arn: {
    type: 'list',
    description: 'ARNs of the principals allowed to log in with iam; a trailing "*" matches a prefix (all roles of an account: arn:aws:iam::123456789012:role/*).',
  },
  inferred_entity_type: {
    type: 'string',
    description: 'Infer an instance from an iam login ("ec2_instance", the only value) and check the ec2 constraints on it. Only for iam roles.',
  },
  inferred_cloud_region: { type: 'string', aliases: ['inferred_aws_region'], description: 'Region the inferred instance is looked up in; required with inferred_entity_type.' },
  resolve_cloud_unique_ids: {
    type: 'bool',
    aliases: ['resolve_aws_unique_ids'],
    description:
      'Resolve each bound_iam_principal_arn without a trailing "*" to the principal\'s unique ID, so a deleted and recreated principal of the same name no longer matches. True for new roles; cannot be turned off.',
  },
  allow_instance_migration: {
    type: 'bool',
    description: 'Let an instance whose pendingTime is newer than the one remembered log in without its nonce (it moved to another host). Only for ec2 roles.',
  },
  disallow_reauthentication: {
    type: 'bool',
    description: "Allow one login per instance; another needs the instance's access list entry removed. Only for ec2 roles.",
  },
  ...ROLE_TOKEN_FIELDS,
};

export const ROLE_TAG_FIELDS: Fields = {
  ...ROLE_NAME_FIELDS,
  policies: { type: 'list', description: "Policies of tokens issued with the tag: a subset of the role's. Empty: the role's policies.", cli: { complete: 'policy' } },
  max_ttl: { type: 'duration', description: 'Longest lifetime of tokens issued with the tag.' },
  instance_id: { type: 'string', key: true, description: 'The only instance allowed to use the tag.' },
  allow_instance_migration: { type: 'bool', description: 'Let an instance with a newer pendingTime log in without its nonce.' },
  disallow_reauthentication: { type: 'bool', description: 'Allow one login per instance with this tag.' },
};

export const ROLE_TAG_PATH_FIELDS: Fields = {
  role_tag: { type: 'string', key: true, description: 'The tag value (tag_value of role/:role/tag), as is or base64-encoded.', required: true },
};

export const INSTANCE_ID_FIELDS: Fields = {
  instance_id: { type: 'string', key: true, description: 'ID of the instance.', required: true },
};

export const TIDY_FIELDS: Fields = {
  safety_buffer: {
    type: 'duration',
    default: DEFAULT_SAFETY_BUFFER_SECONDS,
    description: 'How long past its expiry an entry is kept before it is removed (seconds or a duration such as "72h").',
  },
};

export const LOGIN_FIELDS: Fields = {
  role: {
    type: 'string',
    key: true,
    description: "Role to log in to. Without it: the role named like the instance's image ID (ec2), or like the principal's friendly name (iam).",
  },
  identity: { type: 'string', description: 'ec2: base64 of the instance identity document, sent with signature when the server allows SHA-1 (or send pkcs7 instead).' },
  signature: { type: 'string', description: 'ec2: base64 SHA-256 RSA signature of the identity document, from the metadata service.' },
  pkcs7: {
    type: 'string',
    description: 'ec2: the PKCS#7 signed identity document (the metadata service\'s rsa2048 one, or its SHA-1 pkcs7 one when the server allows SHA-1), newlines removed.',
  },
  nonce: {
    type: 'string',
    sensitive: true,
    description:
      'ec2: the nonce of earlier logins of this instance. Left out on the first login, the server makes one and returns it in the metadata; sent empty, the instance gives up logging in again.',
  },
  iam_http_request_method: { type: 'string', description: 'iam: HTTP method of the signed caller-identity request: POST or GET.' },
  iam_request_url: { type: 'string', description: 'iam: base64 of the URL of the signed request (for GET it carries the signature).' },
  iam_request_body: { type: 'string', description: 'iam: base64 of the body of a POST request: Action=GetCallerIdentity&Version=2011-06-15.' },
  iam_request_headers: {
    type: 'headers',
    description: 'iam: the signed request\'s headers, a JSON object of name to a value or a list of values (or base64 of it); X-Svc-Cloud-IAM-Server-ID (or Vault\'s X-Vault-AWS-IAM-Server-ID) among them when the mount requires it.',
  },
};
