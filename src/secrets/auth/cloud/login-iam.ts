/**
 * The iam login: the client signs a GetCallerIdentity request with its credentials and hands it over
 * without sending it. The server checks the request can only be that call, sends it to the token
 * service, and learns from the answer who signed it; the role's bound principals (and, when the role
 * infers an instance, the instance's ec2 constraints) decide the rest.
 */
import { UserError } from '../../../shared/errors.js';
import type { FieldData } from '../../../framework/schema/field-data.js';
import type { SecretsRequest } from '../../framework/request.js';
import { isRegionName, tokenServiceEndpoint } from '../../../cloud/endpoints.js';
import { loginMaxTtl, mountTtls } from '../role-token.js';
import { readClientConfig } from './client-config.js';
import { identityConfig } from './path-config-identity.js';
import { canonicalArn, parseArn } from './login/arn.js';
import { forwardCallerIdentity } from './login/iam-forward.js';
import { checkServerIdHeader, decodeIamRequest, regionFromAuthorization, validateIamRequest, type IamLoginRequest } from './login/iam-request.js';
import { checkBoundRegion, checkInstanceBindings, describeRunningInstance, instanceCheck } from './login/instance-checks.js';
import type { LoginOutcome } from './login/issue-token.js';
import { selectedMetadata } from './login/login-metadata.js';
import { loginRole } from './login/login-role.js';
import { principalIsBound, type Principal } from './login/principal-match.js';
import type { RoleEntry } from './role-entry.js';
import type { CloudState } from './cloud-state.js';

const GLOBAL_TOKEN_SERVICE = 'https://sts.amazonaws.com';

/** Where the signed request goes: sts_endpoint, or the token service of the region the client signed for. */
function tokenServiceUrl(req: IamLoginRequest, client: ReturnType<typeof readClientConfig>): string {
  if (!client?.use_sts_region_from_client) return client?.sts_endpoint || GLOBAL_TOKEN_SERVICE;
  const region = regionFromAuthorization(req);
  if (!isRegionName(region)) throw new UserError(`unable to get regional STS endpoint for region: ${region}`);
  return tokenServiceEndpoint(undefined, region).url;
}

export interface InferredInstance {
  instanceId: string;
  region: string;
}

/**
 * An instance-profile session is named after its instance, so a role that infers an ec2 instance takes
 * the session name as the instance ID, looks it up in the role's region and account, and applies the
 * ec2 constraints, bound_region against that region (Vault checks bound_region on ec2 logins only and
 * refuses it on any iam role; here it applies wherever the other instance constraints do).
 */
export async function checkInferredInstance(state: CloudState, req: SecretsRequest, roleName: string, role: RoleEntry, p: Principal, accountId: string): Promise<InferredInstance> {
  if (p.arn.type !== 'assumed-role') {
    throw new UserError(`role "${roleName}" infers an ec2 instance, so it admits only assumed-role sessions of an instance profile, not a ${p.arn.type}`);
  }
  const id = { instanceId: p.arn.sessionName, region: role.inferred_cloud_region, accountId };
  checkBoundRegion(roleName, role, id.region);
  const provider = state.providers.get(req.services, req.mountAccessor);
  const instance = await instanceCheck(
    `failed to verify ${id.instanceId} as a valid EC2 instance in region ${id.region}`,
    describeRunningInstance(provider, id),
  );
  await instanceCheck('error validating instance', checkInstanceBindings(provider, roleName, role, id, instance));
  return { instanceId: id.instanceId, region: id.region };
}

export async function iamLogin(state: CloudState, req: SecretsRequest, data: FieldData): Promise<LoginOutcome> {
  const { services, mountAccessor: accessor } = req;
  const request = decodeIamRequest({
    iam_http_request_method: data.getOk<string>('iam_http_request_method'),
    iam_request_url: data.getOk<string>('iam_request_url'),
    iam_request_body: data.getOk<string>('iam_request_body'),
    iam_request_headers: data.getOk('iam_request_headers'),
  });
  const client = readClientConfig(services, accessor);
  // As the established implementation: the header allow-list applies only once config/client exists.
  validateIamRequest(request, client ? client.allowed_sts_header_values : undefined);
  if (client?.iam_server_id_header_value) checkServerIdHeader(request, client.iam_server_id_header_value);

  const caller = await forwardCallerIdentity(tokenServiceUrl(request, client), request, { maxRetries: client?.max_retries });
  const arn = parseArn(caller.arn);
  const principal: Principal = { arn, canonicalArn: canonicalArn(arn), uniqueId: caller.userId.split(':')[0] };

  const roleName = data.get<string>('role') || arn.friendlyName;
  const role = loginRole(req, { name: roleName, authType: 'iam', impliedBy: data.get<string>('role') ? undefined : "principal's friendly name" });
  if (role.bound_iam_principal_arn.length > 0 && !(await principalIsBound(state, services, accessor, roleName, role, principal))) {
    throw new UserError(`IAM Principal "${caller.arn}" does not belong to the role "${roleName}"`);
  }
  const inferred = role.inferred_entity_type === 'ec2_instance' ? await checkInferredInstance(state, req, roleName, role, principal, caller.account) : undefined;

  const config = identityConfig(services.store, accessor);
  const facts: Record<string, string> = {
    account_id: caller.account,
    auth_type: 'iam',
    canonical_arn: principal.canonicalArn,
    client_arn: caller.arn,
    client_user_id: principal.uniqueId,
    inferred_cloud_region: inferred?.region ?? '',
    inferred_entity_id: inferred?.instanceId ?? '',
    inferred_entity_type: inferred ? role.inferred_entity_type : '',
  };
  const selected = selectedMetadata(facts, config.iam_metadata);
  const aliasName = config.iam_alias === 'unique_id' ? principal.uniqueId : config.iam_alias === 'full_arn' ? caller.arn : role.role_id;
  return {
    role,
    policies: role.token_policies,
    maxTtl: loginMaxTtl(role.token_max_ttl, mountTtls(services, accessor)),
    metadata: { ...selected, role_id: role.role_id },
    aliasName,
    aliasMetadata: selected,
    displayName: arn.type === 'assumed-role' ? `${arn.friendlyName}/${arn.sessionName}` : arn.friendlyName,
    internal: {
      auth_type: 'iam',
      role_name: roleName.toLowerCase(),
      role_id: role.role_id,
      canonical_arn: principal.canonicalArn,
      client_arn: caller.arn,
      client_user_id: principal.uniqueId,
      account_id: caller.account,
      inferred_entity_id: inferred?.instanceId ?? '',
      inferred_cloud_region: inferred?.region ?? '',
    },
  };
}
