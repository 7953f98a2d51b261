/**
 * Nomad's `node { policy = ... }` rule: parsing and validation (HCL and JSON), and how the Acl merges it
 * across a token's policies.
 */
import { describe, it, expect } from 'vitest';
import { Acl } from '../../../src/secrets/policy/acl.js';
import { ROOT_POLICY } from '../../../src/secrets/policy/builtin.js';
import { parsePolicy, type Policy } from '../../../src/secrets/policy/policy.js';
import type { NodePolicy } from '../../../src/secrets/policy/capabilities.js';
import { parseError } from './parse-error.js';


describe('parsePolicy: node rule', () => {
  it.each(['read', 'write', 'deny'] as const)('parses node { policy = "%s" } and keeps the text', async (level) => {
    const text = `namespace "default" {\n  policy = "read"\n}\n\nnode {\n  policy = "${level}"\n}\n`;
    const p = await parsePolicy('ops', text);
    expect(p.node).toBe(level);
    expect(p.text).toBe(text);
    expect(p.namespaces).toHaveLength(1);
  });

  it('accepts the one-line block form', async () => {
    expect((await parsePolicy('p', 'node { policy = "write" }\n')).node).toBe('write');
  });

  it('has no node rule when the document has no node block', async () => {
    expect((await parsePolicy('p', 'namespace "default" {\n  policy = "write"\n}\n')).node).toBeUndefined();
    expect((await parsePolicy('p', '')).node).toBeUndefined();
  });

  it('parses the JSON forms: an object body, and the hcl2json array of one body', async () => {
    const text = JSON.stringify({ node: { policy: 'read' }, namespace: { default: { policy: 'read' } } });
    const p = await parsePolicy('j', text);
    expect(p.node).toBe('read');
    expect(p.text).toBe(text);
    expect((await parsePolicy('j', '{"node": [{"policy": "write"}]}')).node).toBe('write');
  });

  it('rejects another policy value, naming it, with line and column', async () => {
    const err = await parseError('path "a" {\n  capabilities = ["read"]\n}\n\nnode {\n  policy = "admin"\n}\n', 'ops');
    expect(err.message).toContain('policy "ops"');
    expect(err.message).toContain('"admin"');
    expect(err.message).toContain('node');
    expect(err.message).toContain('line 6, column 12');
    expect(err.message).toContain('deny, read, write');
  });

  it('rejects other values (a namespace shortcut, the empty string) and non-strings', async () => {
    expect((await parseError('node {\n  policy = "scale"\n}\n')).message).toContain('"scale"');
    expect((await parseError('node {\n  policy = ""\n}\n')).message).toContain('""');
    expect((await parseError('node {\n  policy = 3\n}\n')).message).toContain('line 2, column 12');
  });

  it('requires policy', async () => {
    const err = await parseError('\nnode {}\n');
    expect(err.message).toContain('"policy" is required');
    expect(err.message).toContain('line 2, column 1');
  });

  it('rejects an unknown key, naming it, with line and column', async () => {
    const err = await parseError('node {\n  policy = "read"\n  capabilities = ["read"]\n}\n');
    expect(err.message).toContain('"capabilities"');
    expect(err.message).toContain('line 3, column 3');
    const block = await parseError('node {\n  policy = "read"\n  meta {\n  }\n}\n');
    expect(block.message).toContain('"meta"');
    expect(block.message).toContain('line 3, column 3');
  });

  it('rejects a second node block, pointing at it', async () => {
    const err = await parseError('node {\n  policy = "read"\n}\n\n  node {\n  policy = "write"\n}\n');
    expect(err.message).toMatch(/only one node block/);
    expect(err.message).toContain('line 5, column 3');
  });

  it('rejects a labeled node block and node as an attribute', async () => {
    expect((await parseError('node "x" {\n  policy = "read"\n}\n')).message).toMatch(/line 1, column 1: "node" must be a block without a label/);
    expect((await parseError('node = "read"\n')).message).toMatch(/without a label/);
    expect((await parseError('node = { policy = "read" }\n')).message).toMatch(/without a label/);
  });

  it('ignores `node` in comments, strings and other blocks when placing an error', async () => {
    const text = '# node {\npath "node" {\n  capabilities = ["read"]\n}\n/* node { */\nnode {\n  // policy = "x"\n  policy = "nope"\n}\n';
    expect((await parseError(text)).message).toContain('line 8, column 12');
  });

  it('validates the JSON form the same way, with line and column', async () => {
    const bad = await parseError('{\n  "path": {"node": {"capabilities": ["read"]}},\n  "node": {\n    "policy": "reed"\n  }\n}');
    expect(bad.message).toContain('"reed"');
    expect(bad.message).toContain('line 4, column 15');
    const unknown = await parseError('{\n  "node": {"policy": "read", "agent": "read"}\n}');
    expect(unknown.message).toContain('"agent"');
    expect(unknown.message).toContain('line 2, column 30');
    const twice = await parseError('{\n  "node": [\n    {"policy": "read"},\n    {"policy": "write"}\n  ]\n}');
    expect(twice.message).toMatch(/only one node block/);
    expect(twice.message).toContain('line 4, column 5');
    expect((await parseError('{"node": "read"}')).message).toMatch(/line 1, column 2: "node" must be an object/);
    expect((await parseError('{"node": {}}')).message).toContain('"policy" is required');
  });

  it('still rejects the Nomad blocks it does not enforce', async () => {
    expect((await parseError('plugin {\n  policy = "read"\n}\n')).message).toContain('"plugin"');
    expect((await parseError('operator {\n  policy = "read"\n}\n')).message).toContain('"operator"');
  });
});

function policy(name: string, node?: NodePolicy): Policy {
  return { name, text: '', paths: [], namespaces: [], ...(node ? { node } : {}) };
}

function acl(...levels: (NodePolicy | undefined)[]): Acl {
  return Acl.fromPolicies(levels.map((level, i) => policy(`p${i}`, level)));
}

const grants = (a: Acl) => ({ read: a.allowsNode('read'), write: a.allowsNode('write') });

describe('Acl: node rule', () => {
  it('read grants read only; write grants both; deny and no rule grant nothing', () => {
    expect(grants(acl('read'))).toEqual({ read: true, write: false });
    expect(grants(acl('write'))).toEqual({ read: true, write: true });
    expect(grants(acl('deny'))).toEqual({ read: false, write: false });
    expect(grants(acl(undefined))).toEqual({ read: false, write: false });
    expect(grants(acl())).toEqual({ read: false, write: false });
  });

  it('takes the most permissive rule across policies', () => {
    expect(grants(acl('read', 'write'))).toEqual({ read: true, write: true });
    expect(grants(acl('write', 'read'))).toEqual({ read: true, write: true });
    expect(grants(acl(undefined, 'read'))).toEqual({ read: true, write: false });
  });

  it('deny in any policy wins, in any order', () => {
    for (const order of [
      ['deny', 'write'],
      ['write', 'deny'],
      ['read', 'deny', 'write'],
      [undefined, 'deny'],
    ] as (NodePolicy | undefined)[][]) {
      expect(grants(acl(...order))).toEqual({ read: false, write: false });
    }
  });

  it('root allows everything, even alongside a deny', () => {
    expect(grants(Acl.fromPolicies([ROOT_POLICY]))).toEqual({ read: true, write: true });
    expect(grants(Acl.fromPolicies([ROOT_POLICY, policy('d', 'deny')]))).toEqual({ read: true, write: true });
  });

  it('merges parsed policies', async () => {
    const read = await parsePolicy('r', 'node {\n  policy = "read"\n}\n');
    const write = await parsePolicy('w', '{"node": {"policy": "write"}}');
    const deny = await parsePolicy('d', 'node { policy = "deny" }');
    expect(grants(Acl.fromPolicies([read, write]))).toEqual({ read: true, write: true });
    expect(grants(Acl.fromPolicies([read, write, deny]))).toEqual({ read: false, write: false });
  });
});
