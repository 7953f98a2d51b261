import { describe, it, expect } from 'vitest';
import { parsePolicy, validatePolicyName } from '../../../src/secrets/policy/policy.js';
import { UserError } from '../../../src/shared/errors.js';
import { parseError } from './parse-error.js';

describe('parsePolicy: HCL', () => {
  it('parses path and namespace blocks and keeps the text', async () => {
    const text = `
path "secret/*" {
  capabilities = ["read", "list"]
}
path "/auth/token/create" {
  capabilities = ["update", "sudo"]
}
namespace "default" {
  capabilities = ["submit-job"]
}
`;
    const p = await parsePolicy('ops', text);
    expect(p.name).toBe('ops');
    expect(p.text).toBe(text);
    // Rule order carries no meaning (the HCL parser sorts labels), so compare as sets.
    expect(p.paths).toHaveLength(2);
    expect(p.paths).toEqual(
      expect.arrayContaining([
        { pattern: 'secret/*', capabilities: ['read', 'list'] },
        { pattern: 'auth/token/create', capabilities: ['update', 'sudo'] },
      ]),
    );
    expect(p.namespaces).toEqual([{ pattern: 'default', capabilities: ['submit-job'] }]);
  });

  it('accepts empty and comment-only policies', async () => {
    expect(await parsePolicy('e', '')).toEqual({ name: 'e', text: '', paths: [], namespaces: [] });
    expect((await parsePolicy('c', '# nothing here\n')).paths).toEqual([]);
  });

  it('keeps a block with no capabilities (it still shadows broader patterns)', async () => {
    const p = await parsePolicy('p', 'path "secret/x" {}\nnamespace "dev" {}\n');
    expect(p.paths).toEqual([{ pattern: 'secret/x', capabilities: [] }]);
    expect(p.namespaces).toEqual([{ pattern: 'dev', capabilities: [] }]);
  });

  it('merges repeated blocks for the same pattern and drops duplicate capabilities', async () => {
    const p = await parsePolicy('p', 'path "a" {\n capabilities = ["read", "read"]\n}\npath "a" {\n capabilities = ["list"]\n}\n');
    expect(p.paths).toEqual([{ pattern: 'a', capabilities: ['read', 'list'] }]);
  });

  it('reports syntax errors with line and column', async () => {
    const err = await parseError('path "x" {\n  capabilities = [\n}\n', 'broken');
    expect(err.message).toContain('policy "broken"');
    expect(err.message).toMatch(/line 3, column 1/);
    expect(err.message).toContain('Invalid expression');
    expect(err.message).not.toContain('parse config');
  });

  it('rewrites every position in a diagnostic', async () => {
    const err = await parseError('path "x" {\n capabilities = ["read"]\n capabilities = ["list"]\n}\n');
    expect(err.message).toContain('line 3, column 2');
    expect(err.message).toContain('already set at line 2, column 2');
  });

  it('rejects an unknown path capability, naming it, the path and the line', async () => {
    const err = await parseError('path "ok" {\n capabilities = ["read"]\n}\n\npath "secret/*" {\n  capabilities = ["read", "reed"]\n}\n', 'app');
    expect(err.message).toContain('"reed"');
    expect(err.message).toContain('path "secret/*"');
    expect(err.message).toContain('policy "app"');
    expect(err.message).toContain('line 5');
  });

  it('points at the right block when a label repeats', async () => {
    const err = await parseError('path "a" {\n capabilities = ["read"]\n}\npath "a" {\n capabilities = ["bogus"]\n}\n');
    expect(err.message).toContain('line 4');
  });

  it('rejects a namespace capability on a path (the two vocabularies are separate)', async () => {
    const err = await parseError('path "secret/x" {\n capabilities = ["submit-job"]\n}\n');
    expect(err.message).toContain('"submit-job"');
  });

  it('rejects an unknown namespace capability, naming it and the namespace', async () => {
    const err = await parseError('namespace "prod" {\n  capabilities = ["sentinel-override"]\n}\n');
    expect(err.message).toContain('"sentinel-override"');
    expect(err.message).toContain('namespace "prod"');
  });

  it('rejects unknown top-level blocks and keys', async () => {
    expect((await parseError('operator {\n policy = "read"\n}\n')).message).toContain('"operator"');
    expect((await parseError('foo = 1\n')).message).toContain('"foo"');
  });

  it('rejects unknown attributes inside blocks, including Vault features we do not enforce', async () => {
    const a = await parseError('path "secret/*" {\n capabilities = ["read"]\n allowed_parameters = { "a" = [] }\n}\n');
    expect(a.message).toContain('"allowed_parameters"');
    expect(a.message).toContain('path "secret/*"');
    const b = await parseError('path "secret/*" {\n policy = "read"\n}\n');
    expect(b.message).toContain('"policy"');
    const c = await parseError('namespace "x" {\n policy = "read"\n variables {\n }\n}\n');
    expect(c.message).toContain('"variables"');
  });

  it('rejects unlabeled blocks and non-block values', async () => {
    expect((await parseError('path {\n capabilities = ["read"]\n}\n')).message).toMatch(/labeled block/);
    expect((await parseError('path = "x"\n')).message).toMatch(/labeled block/);
  });

  it('places block and top-level errors at line and column', async () => {
    expect((await parseError('path "a" {\n}\n  path "secret/*" {\n  capabilities = ["reed"]\n}\n')).message).toContain(': line 3, column 3: path "secret/*"');
    expect((await parseError('path "a" {\n}\n\n operator {\n}\n')).message).toContain(': line 4, column 2: unknown top-level key "operator"');
    expect((await parseError('# x\npath {\n}\n')).message).toContain(': line 2, column 1: "path" must be a labeled block');
  });

  it('rejects a block with two labels', async () => {
    const err = await parseError('path "a" "b" {\n}\n');
    expect(err.message).toContain('"b"');
  });

  it('requires capabilities to be a list of strings', async () => {
    expect((await parseError('path "a" {\n capabilities = "read"\n}\n')).message).toMatch(/list of strings/);
    expect((await parseError('path "a" {\n capabilities = ["read", 3]\n}\n')).message).toMatch(/list of strings/);
  });
});

describe('parsePolicy: path patterns', () => {
  it('strips leading slashes', async () => {
    expect((await parsePolicy('p', 'path "//secret/a" {\n capabilities = ["read"]\n}\n')).paths[0].pattern).toBe('secret/a');
  });

  it('allows * only as the last character', async () => {
    expect((await parsePolicy('p', 'path "secret/a*" {\n capabilities = ["read"]\n}\n')).paths[0].pattern).toBe('secret/a*');
    const err = await parseError('path "secret/*/x" {\n capabilities = ["read"]\n}\n');
    expect(err.message).toContain('path "secret/*/x"');
    expect(err.message).toContain('"*"');
  });

  it('allows + segments, also combined with a trailing *', async () => {
    const p = await parsePolicy('p', 'path "secret/+/x" {\n capabilities = ["read"]\n}\npath "secret/+/*" {\n capabilities = ["list"]\n}\n');
    expect(p.paths.map((r) => r.pattern).sort()).toEqual(['secret/+/*', 'secret/+/x']);
  });

  it('rejects +* and an empty pattern', async () => {
    expect((await parseError('path "secret/+*" {\n capabilities = ["read"]\n}\n')).message).toContain('+*');
    expect((await parseError('path "/" {\n capabilities = ["read"]\n}\n')).message).toMatch(/empty/);
  });
});

describe('parsePolicy: namespace rules', () => {
  it.each([
    ['deny', ['deny']],
    ['read', ['list-jobs', 'parse-job', 'read-job', 'csi-list-volume', 'csi-read-volume', 'list-scaling-policies', 'read-scaling-policy', 'read-job-scaling']],
    ['scale', ['list-scaling-policies', 'read-scaling-policy', 'read-job-scaling', 'scale-job']],
  ])('expands policy = "%s"', async (shortcut, expected) => {
    const p = await parsePolicy('p', `namespace "default" {\n policy = "${shortcut}"\n}\n`);
    expect([...p.namespaces[0].capabilities].sort()).toEqual([...expected].sort());
  });

  it('expands write to read plus the write set, without node exec, plugin registration or override', async () => {
    const caps = (await parsePolicy('p', 'namespace "default" {\n policy = "write"\n}\n')).namespaces[0].capabilities;
    for (const c of ['list-jobs', 'read-job', 'parse-job', 'submit-job', 'dispatch-job', 'read-logs', 'read-fs', 'alloc-exec', 'alloc-lifecycle', 'scale-job', 'csi-mount-volume', 'csi-write-volume', 'submit-recommendation']) {
      expect(caps).toContain(c);
    }
    expect(caps).toHaveLength(18);
    expect(caps).not.toContain('alloc-node-exec');
    expect(caps).not.toContain('csi-register-plugin');
    expect(caps).not.toContain('policy-override');
  });

  it('unions explicit capabilities with the shortcut', async () => {
    const caps = (await parsePolicy('p', 'namespace "default" {\n policy = "read"\n capabilities = ["alloc-node-exec", "read-job"]\n}\n')).namespaces[0].capabilities;
    expect(caps).toContain('alloc-node-exec');
    expect(caps).toContain('list-jobs');
    expect(caps.filter((c) => c === 'read-job')).toHaveLength(1);
  });

  it('rejects an unknown shortcut', async () => {
    const err = await parseError('namespace "default" {\n policy = "admin"\n}\n');
    expect(err.message).toContain('"admin"');
    expect(err.message).toContain('namespace "default"');
  });

  it('accepts globs anywhere in namespace names and rejects other characters', async () => {
    const p = await parsePolicy('p', 'namespace "*-prod-*" {\n policy = "read"\n}\n');
    expect(p.namespaces[0].pattern).toBe('*-prod-*');
    expect((await parseError('namespace "a/b" {\n policy = "read"\n}\n')).message).toContain('namespace "a/b"');
  });
});

describe('parsePolicy: JSON', () => {
  it('parses Vault JSON with object bodies', async () => {
    const text = JSON.stringify({
      path: { 'secret/*': { capabilities: ['read'] }, '/sys/x': { capabilities: ['sudo', 'update'] } },
      namespace: { default: { policy: 'read', capabilities: ['submit-job'] } },
    });
    const p = await parsePolicy('j', `  ${text}`);
    expect(p.paths).toEqual([
      { pattern: 'secret/*', capabilities: ['read'] },
      { pattern: 'sys/x', capabilities: ['sudo', 'update'] },
    ]);
    expect(p.namespaces[0].pattern).toBe('default');
    expect(p.namespaces[0].capabilities).toContain('submit-job');
    expect(p.namespaces[0].capabilities).toContain('list-jobs');
  });

  it('parses the hcl2json shape with array bodies and an array of label maps', async () => {
    const text = JSON.stringify({
      path: [{ a: [{ capabilities: ['read'] }, { capabilities: ['list'] }] }, { b: { capabilities: ['deny'] } }],
    });
    const p = await parsePolicy('j', text);
    expect(p.paths).toEqual([
      { pattern: 'a', capabilities: ['read', 'list'] },
      { pattern: 'b', capabilities: ['deny'] },
    ]);
  });

  it('reports JSON syntax errors with a position', async () => {
    const err = await parseError('{\n  "path": {"a": 1\n}');
    expect(err.message).toMatch(/line \d+, column \d+/);
    expect(err.message).toContain('invalid JSON');
  });

  it('applies the same validation as HCL, with the line and column of the offending block', async () => {
    const err = await parseError('{\n  "path": {\n    "secret/x": {"capabilities": ["nope"]}\n  }\n}');
    expect(err.message).toContain('"nope"');
    expect(err.message).toContain('line 3, column 5: ');
    expect((await parseError('{"foo": {}}')).message).toContain('"foo"');
    expect((await parseError('{"path": {"a": {"capabilities": ["read"], "max_wrapping_ttl": "1h"}}}')).message).toContain('"max_wrapping_ttl"');
    expect((await parseError('{"path": {"a": 5}}')).message).toContain('block body');
  });
});

describe('validatePolicyName', () => {
  it('lower-cases and trims', () => {
    expect(validatePolicyName(' Ops-Team_1.x ')).toBe('ops-team_1.x');
  });

  it.each(['', '   ', 'a/b', 'a b', 'ünï', '..', 'a*'])('rejects %j', (name) => {
    expect(() => validatePolicyName(name)).toThrow(UserError);
    expect(() => validatePolicyName(name)).toThrow(/policy name/);
  });
});
