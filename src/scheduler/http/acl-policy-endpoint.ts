/**
 * GET /v1/acl/policies and /v1/acl/policy/:name, as Nomad serves them (`nomad acl policy list/info`, and
 * Nomad's UI, which evaluates a token's rules in the browser from RulesJSON). The policies are svc's one
 * store, the secrets side's: a document may hold Vault `path` rules beside Nomad's, and RulesJSON carries
 * the Nomad rules only. A management token reads every policy; any other token only those its ACL is
 * made of (its own and its entity's), as Nomad lets a token read the policies attached to it.
 *
 * Both answer blocking queries (`?index=`), as Nomad's do.
 *
 * Nomad's RulesJSON keeps a namespace rule's `policy` shortcut beside its capabilities, already expanded
 * into them; svc keeps only the expanded capabilities, so Policy is always "" and Capabilities say it all.
 */
import { NotFound, PermissionDenied } from '../../shared/errors.js';
import type { PolicyRecord } from '../../secrets/policy/policy-service.js';
import { parsePolicy } from '../../secrets/policy/policy.js';
import { POLICIES_TABLE } from '../../secrets/policy/policy-store.js';
import type { TokenCaller } from '../../secrets/token/caller.js';
import { defineRoute } from './route.js';

export interface NomadAclPolicyStub {
  Name: string;
  Description: string;
  CreateIndex: number;
  ModifyIndex: number;
}

export interface NomadNamespaceRule {
  Name: string;
  Policy: string;
  Capabilities: string[];
}

/** The parsed rules of Nomad's acl.Policy that svc's policies can hold. */
export interface NomadPolicyRules {
  Namespaces: NomadNamespaceRule[];
  Node: { Policy: string } | null;
  Agent: { Policy: string } | null;
}

export interface NomadAclPolicy extends NomadAclPolicyStub {
  Rules: string;
  RulesJSON: NomadPolicyRules;
}

const stub = (record: PolicyRecord): NomadAclPolicyStub => ({ Name: record.name, Description: '', CreateIndex: record.createIndex, ModifyIndex: record.modifyIndex });

/** Nomad's rule: management reads any policy, another token those it holds. */
const mayRead = (caller: TokenCaller, name: string) => caller.acl.root || caller.acl.policyNames.includes(name);

export async function nomadAclPolicy(record: PolicyRecord): Promise<NomadAclPolicy> {
  const policy = await parsePolicy(record.name, record.text);
  return {
    ...stub(record),
    Rules: record.text,
    RulesJSON: {
      Namespaces: policy.namespaces.map((rule) => ({ Name: rule.pattern, Policy: '', Capabilities: rule.capabilities })),
      Node: policy.node ? { Policy: policy.node } : null,
      Agent: policy.agent ? { Policy: policy.agent } : null,
    },
  };
}

export const aclPolicyRoutes = [
  defineRoute({
    methods: ['GET'],
    path: '/v1/acl/policies',
    acl: { authenticated: true },
    blocking: true,
    synopsis: 'List the ACL policies the token may read: all of them for a management token, its own otherwise.',
    query: { prefix: { type: 'string', description: 'Only policies whose name starts with this.' } },
    handler: async (req) => {
      const prefix = req.query.get<string>('prefix');
      const records = req.services.policies
        .list()
        .filter((name) => name.startsWith(prefix) && mayRead(req.caller, name))
        .map((name) => req.services.policies.get(name))
        .filter((r): r is PolicyRecord => r !== undefined);
      // The table's index, not the rows': a deletion moves it too, so a blocking listing wakes for it.
      return { body: records.map(stub), index: Math.max(1, req.services.store.tableIndex(POLICIES_TABLE)) };
    },
  }),
  defineRoute({
    methods: ['GET'],
    path: '/v1/acl/policy/:name',
    acl: { authenticated: true },
    blocking: true,
    synopsis: 'Read an ACL policy with its rules, parsed as Nomad answers them in RulesJSON.',
    handler: async (req) => {
      const name = req.params.name.trim().toLowerCase();
      // Refused before looking, so a token cannot learn which names exist.
      if (!mayRead(req.caller, name)) throw new PermissionDenied('Permission denied');
      const record = req.services.policies.get(name);
      if (!record) throw new NotFound('ACL policy not found');
      return { body: await nomadAclPolicy(record), index: Math.max(1, record.modifyIndex) };
    },
  }),
];
