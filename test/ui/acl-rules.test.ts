/**
 * The UI's evaluation of Nomad rules (src/ui/acl-rules.ts) against the server's own Acl on the same
 * policies, read the way the UI reads them (RulesJSON as GET /v1/acl/policy/:name builds it): for every
 * set of policies below, every namespace and every capability, the two must agree.
 */
import { describe, expect, it } from 'vitest';
import { compileRules } from '../../src/ui/acl-rules.js';
import { Acl } from '../../src/secrets/policy/acl.js';
import { parsePolicy } from '../../src/secrets/policy/policy.js';
import { NAMESPACE_CAPABILITIES } from '../../src/secrets/policy/capabilities.js';
import { nomadAclPolicy } from '../../src/scheduler/http/acl-policy-endpoint.js';

const POLICIES: Record<string, string> = {
  readDefault: 'namespace "default" { policy = "read" }',
  writeWeb: 'namespace "web-*" { policy = "write" }\nnode { policy = "read" }',
  denyWebProd: 'namespace "web-prod" { policy = "deny" }\nagent { policy = "write" }',
  globTie: 'namespace "a*" { capabilities = ["list-jobs"] }\nnamespace "*b" { capabilities = ["submit-job"] }',
  longerGlob: 'namespace "web-p*" { capabilities = ["read-logs"] }\nnamespace "*" { policy = "read" }',
  explicitCaps: 'namespace "default" { capabilities = ["submit-job", "alloc-exec"] }\nnode { policy = "deny" }',
  scale: 'namespace "ops" { policy = "scale" }\nnamespace "ops" { capabilities = ["read-fs"] }',
  denyAll: 'namespace "*" { capabilities = ["deny"] }\nagent { policy = "read" }',
  pathsOnly: 'path "secret/*" { capabilities = ["read"] }',
};

const SETS: string[][] = [
  ['readDefault'],
  ['writeWeb'],
  ['writeWeb', 'denyWebProd'],
  ['globTie'],
  ['longerGlob'],
  ['longerGlob', 'writeWeb'],
  ['readDefault', 'explicitCaps'],
  ['explicitCaps', 'writeWeb'],
  ['scale', 'readDefault'],
  ['denyAll', 'readDefault'],
  ['denyAll', 'longerGlob'],
  ['pathsOnly'],
  [],
  Object.keys(POLICIES),
];

const NAMESPACES = ['default', 'web-prod', 'web-dev', 'web-p', 'ab', 'a', 'b', 'xb', 'ops', 'other', '*'];

async function both(names: string[]) {
  const server = Acl.fromPolicies(await Promise.all(names.map((n) => parsePolicy(n.toLowerCase(), POLICIES[n]))));
  const ui = compileRules(await Promise.all(names.map(async (n) => (await nomadAclPolicy({ name: n.toLowerCase(), text: POLICIES[n], createIndex: 1, modifyIndex: 1 })).RulesJSON)));
  return { server, ui };
}

describe('the UI\'s Nomad rules', () => {
  it('decide every namespace capability as the server does', async () => {
    const disagreements: string[] = [];
    let checked = 0;
    for (const set of SETS) {
      const { server, ui } = await both(set);
      for (const namespace of NAMESPACES) {
        for (const capability of NAMESPACE_CAPABILITIES) {
          checked++;
          const want = server.allowsNamespace(namespace, capability);
          if (ui.allowsNamespace(namespace, capability) !== want) disagreements.push(`[${set}] ${namespace} ${capability}: server ${want}`);
        }
      }
    }
    expect(checked).toBeGreaterThan(2000);
    expect(disagreements).toEqual([]);
  });

  it('decide the node and agent rules as the server does', async () => {
    const disagreements: string[] = [];
    for (const set of SETS) {
      const { server, ui } = await both(set);
      for (const access of ['read', 'write'] as const) {
        if (ui.allowsNode(access) !== server.allowsNode(access)) disagreements.push(`[${set}] node ${access}`);
        if (ui.allowsAgent(access) !== server.allowsAgent(access)) disagreements.push(`[${set}] agent ${access}`);
      }
    }
    expect(disagreements).toEqual([]);
  });

  it('are not vacuous: the sets above both grant and refuse', async () => {
    const { ui } = await both(['writeWeb', 'denyWebProd']);
    expect(ui.allowsNamespace('web-dev', 'submit-job')).toBe(true);
    expect(ui.allowsNamespace('web-prod', 'read-job')).toBe(false);
    expect(ui.allowsNamespace('*', 'submit-job')).toBe(true);
    expect(ui.allowsNamespace('default', 'list-jobs')).toBe(false);
    expect(ui.allowsNode('read')).toBe(true);
    expect(ui.allowsNode('write')).toBe(false);
    expect(ui.allowsAgent('write')).toBe(true);
  });
});
