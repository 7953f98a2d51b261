/**
 * ACL policy endpoints: sys/policies/acl (current) and sys/policy (older, still served by Vault and still
 * used by existing clients). Neither has an existence check, so every write needs `update`, as in Vault.
 */
import { NotFound, UserError } from '../../shared/errors.js';
import { definePath } from '../framework/path.js';
import type { FieldData } from '../../framework/schema/field-data.js';
import type { SecretsRequest } from '../framework/request.js';
import type { PolicyService } from '../policy/policy-service.js';
import { LEGACY_POLICY_FIELDS, POLICY_FIELDS } from './fields.js';

function policyStore(req: SecretsRequest): PolicyService {
  return req.services.policies;
}

const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/**
 * Vault accepts the document base64-encoded. A real HCL or JSON policy always holds spaces, quotes or
 * braces, so text that is valid base64 and decodes to UTF-8 can only have been encoded on purpose.
 */
export function decodePolicyText(text: string): string {
  const compact = text.replace(/[\r\n]/g, '');
  if (compact.length === 0 || compact.length % 4 !== 0 || !BASE64.test(compact)) return text;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(Buffer.from(compact, 'base64'));
  } catch {
    return text;
  }
}

async function readPolicy(req: SecretsRequest, data: FieldData, textKey: 'policy' | 'rules') {
  const record = policyStore(req).get(data.get<string>('name'));
  if (!record) throw new NotFound();
  return { data: { name: record.name, [textKey]: record.text } };
}

async function deletePolicy(req: SecretsRequest, data: FieldData) {
  await policyStore(req).delete(data.get<string>('name'));
}

function listResponse(req: SecretsRequest, legacy: boolean) {
  const keys = policyStore(req).list();
  return { data: legacy ? { keys, policies: keys } : { keys } };
}

export const policyPaths = [
  definePath({
    pattern: 'policies/acl',
    fields: {},
    synopsis: 'List ACL policies.',
    description: 'Lists the names of every ACL policy, the built-in "default" and "root" included.',
    operations: {
      list: { summary: 'List the policy names.', handler: async (req) => listResponse(req, false) },
    },
  }),
  definePath({
    pattern: 'policies/acl/:name',
    patch: true,
    fields: POLICY_FIELDS,
    synopsis: 'Read, write and delete an ACL policy.',
    description:
      'An ACL policy holds `path` rules for the secrets API and `namespace` rules for the scheduler API. ' +
      'The "root" policy cannot be written; "root" and "default" cannot be deleted. A policy that does not ' +
      'parse is refused with the parser\'s message and nothing is stored.',
    operations: {
      read: { summary: 'Read the policy text.', handler: (req, data) => readPolicy(req, data, 'policy') },
      update: {
        summary: 'Create or replace the policy.',
        handler: async (req, data) => {
          await policyStore(req).put(data.get<string>('name'), decodePolicyText(data.get<string>('policy')));
        },
      },
      delete: { summary: 'Delete the policy.', handler: deletePolicy },
    },
  }),
  definePath({
    pattern: 'policy',
    fields: {},
    synopsis: 'List ACL policies (older path).',
    description: 'The older form of sys/policies/acl: answers both `keys` and `policies`.',
    operations: {
      read: { summary: 'List the policy names.', handler: async (req) => listResponse(req, true) },
      list: { summary: 'List the policy names.', handler: async (req) => listResponse(req, true) },
    },
  }),
  definePath({
    pattern: 'policy/:name',
    fields: LEGACY_POLICY_FIELDS,
    synopsis: 'Read, write and delete an ACL policy (older path).',
    description: 'The older form of sys/policies/acl/:name: reads answer the text as `rules`, writes take `policy` or `rules`.',
    operations: {
      read: { summary: 'Read the policy text.', handler: (req, data) => readPolicy(req, data, 'rules') },
      update: {
        summary: 'Create or replace the policy.',
        handler: async (req, data) => {
          const text = data.get<string>('policy') || data.get<string>('rules');
          if (text === '') throw new UserError("'policy' parameter not supplied or empty");
          await policyStore(req).put(data.get<string>('name'), decodePolicyText(text));
          // Vault's handler answers a write that used `rules`, so that the field's deprecation is said; others answer nothing.
          return data.has('rules') ? {} : undefined;
        },
      },
      delete: { summary: 'Delete the policy.', handler: deletePolicy },
    },
  }),
];
