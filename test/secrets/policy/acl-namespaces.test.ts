import { describe, it, expect } from 'vitest';
import { Acl } from '../../../src/secrets/policy/acl.js';
import { parsePolicy, type Policy } from '../../../src/secrets/policy/policy.js';

function policy(name: string, namespaces: Record<string, string[]>): Policy {
  return { name, text: '', paths: [], namespaces: Object.entries(namespaces).map(([pattern, capabilities]) => ({ pattern, capabilities })) };
}

function acl(...policies: Record<string, string[]>[]): Acl {
  return Acl.fromPolicies(policies.map((p, i) => policy(`p${i}`, p)));
}

describe('Acl namespaces: matching', () => {
  it('an exact name beats any glob, even one with more capabilities', () => {
    const a = acl({ prod: ['read-job'], '*': ['read-job', 'submit-job'], 'pro*': ['alloc-exec'] });
    expect(a.allowsNamespace('prod', 'read-job')).toBe(true);
    expect(a.allowsNamespace('prod', 'submit-job')).toBe(false);
    expect(a.allowsNamespace('prod', 'alloc-exec')).toBe(false);
    expect(a.allowsNamespace('dev', 'submit-job')).toBe(true);
  });

  it('an exact rule with no capabilities shadows globs', () => {
    const a = acl({ secret: [], '*': ['read-job'] });
    expect(a.allowsNamespace('secret', 'read-job')).toBe(false);
    expect(a.canAccessNamespace('secret')).toBe(false);
    expect([...a.namespaceCapabilities('secret')]).toEqual([]);
  });

  it('picks the glob with the fewest wildcard-matched characters', () => {
    const a = acl({ '*': ['list-jobs'], 'prod-*': ['read-job'], 'prod-web-*': ['alloc-exec'] });
    expect([...a.namespaceCapabilities('prod-web-1')]).toEqual(['alloc-exec']);
    expect([...a.namespaceCapabilities('prod-db')]).toEqual(['read-job']);
    expect([...a.namespaceCapabilities('dev')]).toEqual(['list-jobs']);
  });

  it('counts literal characters wherever the * sits', () => {
    const a = acl({ '*-web': ['read-logs'], 'prod-*': ['read-fs'], '*od*we*': ['alloc-exec'] });
    // literal lengths: "*-web" 4, "prod-*" 5, "*od*we*" 4 → prod-* is closest for "prod-web".
    expect([...a.namespaceCapabilities('prod-web')]).toEqual(['read-fs']);
    expect([...a.namespaceCapabilities('dev-web')]).toEqual(['read-logs']);
  });

  it('breaks ties by the lexicographically smallest pattern, independent of policy order', () => {
    const rules: Record<string, string[]>[] = [{ 'a*': ['read-fs'] }, { '*b': ['read-logs'] }];
    expect([...acl(...rules).namespaceCapabilities('ab')]).toEqual(['read-logs']);
    expect([...acl(...[...rules].reverse()).namespaceCapabilities('ab')]).toEqual(['read-logs']);
  });

  it('treats only * as special in globs', () => {
    const a = acl({ 'a-*': ['read-job'] });
    expect(a.canAccessNamespace('a-')).toBe(true);
    expect(a.canAccessNamespace('ab')).toBe(false);
    expect(a.canAccessNamespace('xa-1')).toBe(false);
  });

  it('grants nothing without a matching rule', () => {
    const a = acl({ prod: ['read-job'] });
    expect(a.allowsNamespace('dev', 'read-job')).toBe(false);
    expect(a.canAccessNamespace('dev')).toBe(false);
    expect([...a.namespaceCapabilities('dev')]).toEqual([]);
  });
});

describe('Acl namespaces: merging and deny', () => {
  it('unions the same namespace pattern across policies', () => {
    const a = acl({ prod: ['read-job'] }, { prod: ['submit-job'] });
    expect([...a.namespaceCapabilities('prod')].sort()).toEqual(['read-job', 'submit-job']);
  });

  it('deny in any policy for the same pattern wins, in either order', () => {
    for (const a of [acl({ prod: ['submit-job'] }, { prod: ['deny'] }), acl({ prod: ['deny'] }, { prod: ['submit-job'] })]) {
      expect(a.allowsNamespace('prod', 'submit-job')).toBe(false);
      expect(a.canAccessNamespace('prod')).toBe(false);
      expect([...a.namespaceCapabilities('prod')]).toEqual(['deny']);
    }
  });

  it('a deny in the winning glob denies; a broader deny glob does not affect a closer grant', () => {
    const a = acl({ '*': ['deny'], 'prod-*': ['read-job'], 'prod-secret-*': ['deny'] });
    expect(a.allowsNamespace('prod-web', 'read-job')).toBe(true);
    expect(a.allowsNamespace('prod-secret-1', 'read-job')).toBe(false);
    expect(a.allowsNamespace('dev', 'read-job')).toBe(false);
  });

  it('never reports deny itself as an allowed capability', () => {
    expect(acl({ prod: ['deny'] }).allowsNamespace('prod', 'deny')).toBe(false);
  });

  it('works with policy shortcuts from parsed text', async () => {
    const a = Acl.fromPolicies([
      await parsePolicy('dev', 'namespace "*" {\n policy = "read"\n}\nnamespace "dev" {\n policy = "write"\n}\n'),
      await parsePolicy('nope', 'namespace "prod" {\n policy = "deny"\n}\n'),
    ]);
    expect(a.allowsNamespace('dev', 'submit-job')).toBe(true);
    expect(a.allowsNamespace('staging', 'read-job')).toBe(true);
    expect(a.allowsNamespace('staging', 'submit-job')).toBe(false);
    expect(a.allowsNamespace('prod', 'read-job')).toBe(false);
  });
});

describe('Acl namespaces: the "*" request value', () => {
  it('allows an operation if any namespace allows it (Nomad)', () => {
    const a = acl({ dev: ['submit-job'], prod: ['deny'] });
    expect(a.allowsNamespace('*', 'submit-job')).toBe(true);
    expect(a.allowsNamespace('*', 'read-job')).toBe(false);
    expect(a.canAccessNamespace('*')).toBe(true);
  });

  it('is not accessible when every rule denies or grants nothing', () => {
    const a = acl({ prod: ['deny'], dev: [] });
    expect(a.canAccessNamespace('*')).toBe(false);
    expect(acl({}).canAccessNamespace('*')).toBe(false);
  });
});
