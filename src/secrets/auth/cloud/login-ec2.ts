/**
 * The ec2 login: an instance sends its identity document signed by the provider (as PKCS#7, or as the
 * document and its raw signature). The signature is checked against the trusted certificates, the
 * instance against the provider (running) and the role's constraints, the nonce and access list per the
 * reauthentication rules, and the role tag when the role uses them.
 */
import { UserError } from '../../../shared/errors.js';
import type { FieldData } from '../../../framework/schema/field-data.js';
import type { SecretsRequest } from '../../framework/request.js';
import type { WriteTx } from '../../../storage/store.js';
import { formatDuration } from '../../../shared/duration.js';
import { mountTtls } from '../role-token.js';
import { updateAccessListEntryInTx } from './access-list.js';
import { identityConfig } from './path-config-identity.js';
import { checkBoundRegion, checkInstanceBindings, describeRunningInstance, instanceCheck } from './login/instance-checks.js';
import type { LoginOutcome, OutcomeCompletion } from './login/issue-token.js';
import { selectedMetadata } from './login/login-metadata.js';
import { loginRole } from './login/login-role.js';
import { accessListAfterLogin, checkReauthentication, ec2MaxTtls, type NonceRequest } from './login/nonce.js';
import { roleTagForLogin } from './login/role-tag-login.js';
import { checkDocument } from './login/document-check.js';
import { verifiedOnce } from './login/verified-documents.js';
import type { VerifiedRoleTag } from './role-tag.js';
import type { CloudState } from './cloud-state.js';

/** The identity document's fields a login reads; the rest is ignored. */
export interface IdentityDocumentFacts {
  instanceId: string;
  accountId: string;
  region: string;
  imageId: string;
  pendingTime: string;
}

/**
 * The identity + signature pair is checked against the provider's SHA-1 signed certificate, which Vault's
 * aws method refuses by default from Vault 1.12 on, as it does the DSA pkcs7 document.
 */
const IDENTITY_SHA1_REFUSAL =
  'failed to verify the signature: the identity and signature login relies on the provider\'s SHA-1 signed ' +
  'certificate, which is disabled by default; send the "rsa2048" document as pkcs7 instead, or start the server ' +
  'with -cloud-allow-sha1 to accept SHA-1 signatures';

/** Verifies the signed document and returns its bytes. */
function verifiedDocument(state: CloudState, req: SecretsRequest, data: FieldData): Buffer {
  const pkcs7 = data.get<string>('pkcs7');
  const identity = data.get<string>('identity');
  const signature = data.get<string>('signature');
  const tuple = identity !== '' && signature !== '';
  if (pkcs7 === '' && !tuple) {
    throw new UserError('either pkcs7 or a tuple containing the instance identity document and its SHA256 RSA signature needs to be provided');
  }
  if (pkcs7 !== '' && tuple) {
    throw new UserError('both pkcs7 and a tuple containing the instance identity document and its SHA256 RSA signature is supplied; provide only one');
  }
  const { store, config } = req.services;
  if (pkcs7 !== '') {
    const trust = state.trust.get(store, req.mountAccessor, 'pkcs7');
    const allowSha1 = config.cloud.allowSha1;
    return verifiedOnce(state.verified, ['pkcs7', String(allowSha1), pkcs7], trust.fingerprint, () => checkDocument({ kind: 'pkcs7', pkcs7, allowSha1, trust }, state.checks));
  }
  if (!config.cloud.allowSha1) throw new UserError(IDENTITY_SHA1_REFUSAL);
  const trust = state.trust.get(store, req.mountAccessor, 'identity');
  return verifiedOnce(state.verified, ['identity', identity, signature], trust.fingerprint, () => checkDocument({ kind: 'identity', identity, signature, trust }, state.checks));
}

export function parseIdentityDocument(bytes: Buffer): IdentityDocumentFacts {
  let doc: unknown;
  try {
    doc = JSON.parse(bytes.toString('utf8'));
  } catch {
    throw new UserError('the signed instance identity document is not JSON');
  }
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) throw new UserError('the signed instance identity document is not a JSON object');
  const field = (name: string, required: boolean): string => {
    const v = (doc as Record<string, unknown>)[name];
    if (typeof v === 'string' && v !== '') return v;
    if (required) throw new UserError(`the signed instance identity document has no ${name}`);
    return '';
  };
  return {
    instanceId: field('instanceId', true),
    accountId: field('accountId', true),
    region: field('region', true),
    imageId: field('imageId', false),
    pendingTime: field('pendingTime', true),
  };
}

export async function ec2Login(state: CloudState, req: SecretsRequest, data: FieldData): Promise<LoginOutcome> {
  const { services, mountAccessor: accessor } = req;
  const doc = parseIdentityDocument(verifiedDocument(state, req, data));
  const roleName = data.get<string>('role') || doc.imageId;
  if (roleName === '') throw new UserError('no role was given and the instance identity document has no imageId to name one');
  const role = loginRole(req, { name: roleName, authType: 'ec2', impliedBy: data.get<string>('role') ? undefined : "instance's image ID" });

  const provider = state.providers.get(services, accessor);
  const instance = await instanceCheck('failed to verify instance ID', describeRunningInstance(provider, doc));
  checkBoundRegion(roleName, role, doc.region);
  await instanceCheck('Error validating instance', checkInstanceBindings(provider, roleName, role, doc, instance));

  const nonce: NonceRequest = { sent: data.has('nonce'), value: data.get<string>('nonce') };
  const mountMax = mountTtls(services, accessor).maxTtl;
  const config = identityConfig(services.store, accessor);
  const facts = { account_id: doc.accountId, auth_type: 'ec2', ami_id: doc.imageId, instance_id: doc.instanceId, region: doc.region };
  const selected = selectedMetadata(facts, config.ec2_metadata);
  const aliasName = config.ec2_alias === 'instance_id' ? doc.instanceId : config.ec2_alias === 'image_id' ? doc.imageId : role.role_id;
  const internal: Record<string, unknown> = { auth_type: 'ec2', role: roleName.toLowerCase(), instance_id: doc.instanceId, region: doc.region, account_id: doc.accountId };

  /** The nonce rules against the instance's entry as of this transaction, then the role tag, then the entry's update. */
  const stage = (tx: WriteTx): OutcomeCompletion => {
    let tag: VerifiedRoleTag | undefined;
    let returnedNonce: string | undefined;
    let shortestMaxTtl = mountMax;
    updateAccessListEntryInTx(tx, services, accessor, doc.instanceId, (stored) => {
      const check = checkReauthentication(stored, nonce, role, doc.pendingTime);
      tag = role.role_tag ? roleTagForLogin(services, accessor, roleName, role, instance) : undefined;
      if (tag?.disallowReauthentication) check.disallow = true;
      const ttls = ec2MaxTtls(mountMax, role.token_max_ttl, tag?.maxTtl ?? 0);
      shortestMaxTtl = ttls.shortest;
      const update = accessListAfterLogin(stored, check, nonce, { role: roleName.toLowerCase(), pendingTime: doc.pendingTime, longestMaxTtl: ttls.longest, now: new Date() });
      returnedNonce = update.returnedNonce;
      return update.entry;
    });
    const tagMaxTtl = tag?.maxTtl ?? 0;
    internal.role_tag_max_ttl = tagMaxTtl;
    return {
      policies: tag && tag.policies.length > 0 ? tag.policies : role.token_policies,
      maxTtl: shortestMaxTtl,
      metadata: { role_tag_max_ttl: formatDuration(tagMaxTtl), ...(returnedNonce ? { nonce: returnedNonce } : {}) },
    };
  };

  return {
    role,
    policies: role.token_policies,
    maxTtl: mountMax,
    metadata: { ...selected, role: roleName },
    aliasName,
    aliasMetadata: selected,
    displayName: doc.instanceId,
    internal,
    stage,
  };
}
