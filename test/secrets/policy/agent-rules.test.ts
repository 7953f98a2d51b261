/** Nomad's `agent { policy = ... }` rule: parsed as the node rule is, merged across policies, asked by /v1/metrics. */
import { describe, expect, it } from 'vitest';
import { parsePolicy } from '../../../src/secrets/policy/policy.js';
import { Acl } from '../../../src/secrets/policy/acl.js';

const parseError = async (text: string) => {
  try {
    await parsePolicy('p', text);
  } catch (err) {
    return err as Error;
  }
  throw new Error('expected a parse error');
};

describe('the agent rule', () => {
  it('reads agent { policy } in HCL and JSON', async () => {
    expect((await parsePolicy('p', 'agent {\n  policy = "read"\n}\n')).agent).toBe('read');
    expect((await parsePolicy('p', '{"agent": {"policy": "write"}}')).agent).toBe('write');
    expect((await parsePolicy('p', 'node {\n  policy = "read"\n}\n')).agent).toBeUndefined();
  });

  it('refuses a bad value, an unknown attribute and a second block, citing where', async () => {
    expect((await parseError('agent {\n  policy = "list"\n}\n')).message).toBe('failed to parse policy "p": line 2, column 12: agent: invalid policy "list" (valid: deny, read, write)');
    expect((await parseError('agent {\n  policy = "read"\n  capabilities = ["read"]\n}\n')).message).toContain('agent: unknown attribute "capabilities"');
    expect((await parseError('agent {\n}\n')).message).toContain('agent: "policy" is required');
    expect((await parseError('agent {\n  policy = "read"\n}\nagent {\n  policy = "write"\n}\n')).message).toContain('agent: only one agent block is allowed in a policy');
    expect((await parseError('{"agent": "read"}')).message).toContain('"agent" must be an object, as in {"agent": {"policy": "read"}}');
  });

  it('grants read to read and write, write only to write; deny wins across policies', async () => {
    const acl = async (...texts: string[]) => Acl.fromPolicies(await Promise.all(texts.map((t, i) => parsePolicy(`p${i}`, t))));
    const read = await acl('agent {\n  policy = "read"\n}\n');
    expect([read.allowsAgent('read'), read.allowsAgent('write')]).toEqual([true, false]);
    const write = await acl('agent {\n  policy = "write"\n}\n');
    expect([write.allowsAgent('read'), write.allowsAgent('write')]).toEqual([true, true]);
    const denied = await acl('agent {\n  policy = "write"\n}\n', 'agent {\n  policy = "deny"\n}\n');
    expect(denied.allowsAgent('read')).toBe(false);
    const none = await acl('node {\n  policy = "write"\n}\n');
    expect([none.allowsAgent('read'), none.allowsNode('read')]).toEqual([false, true]);
  });
});
