import { describe, it, expect } from 'vitest';
import { Acl } from '../../../src/secrets/policy/acl.js';
import { parsePolicy, type Policy } from '../../../src/secrets/policy/policy.js';

/** A policy from `pattern → capabilities`, skipping the parser so each test states its rules plainly. */
function policy(name: string, paths: Record<string, string[]>): Policy {
  return { name, text: '', paths: Object.entries(paths).map(([pattern, capabilities]) => ({ pattern, capabilities })), namespaces: [] };
}

function acl(...policies: Record<string, string[]>[]): Acl {
  return Acl.fromPolicies(policies.map((p, i) => policy(`p${i}`, p)));
}

function caps(a: Acl, path: string): string[] {
  return [...a.capabilities(path)].sort();
}

describe('Acl paths: matching', () => {
  it('matches exact patterns only exactly', () => {
    const a = acl({ 'secret/a': ['read'] });
    expect(a.allows('secret/a', 'read')).toBe(true);
    expect(a.allows('secret/ab', 'read')).toBe(false);
    expect(a.allows('secret/a/b', 'read')).toBe(false);
    expect(a.allows('secret', 'read')).toBe(false);
  });

  it('treats a trailing * as a prefix glob', () => {
    const a = acl({ 'secret/*': ['read'], 'kv/ab*': ['read'] });
    expect(a.allows('secret/', 'read')).toBe(true);
    expect(a.allows('secret/a', 'read')).toBe(true);
    expect(a.allows('secret/a/b/c', 'read')).toBe(true);
    expect(a.allows('secret', 'read')).toBe(false);
    expect(a.allows('secrets/a', 'read')).toBe(false);
    expect(a.allows('kv/abc/d', 'read')).toBe(true);
    expect(a.allows('kv/a', 'read')).toBe(false);
  });

  it('lets a lone * match everything', () => {
    const a = acl({ '*': ['read'] });
    expect(a.allows('anything/at/all', 'read')).toBe(true);
    expect(a.allows('anything/at/all', 'update')).toBe(false);
  });

  it('matches + against exactly one segment', () => {
    const a = acl({ 'secret/+/x': ['read'] });
    expect(a.allows('secret/a/x', 'read')).toBe(true);
    expect(a.allows('secret/b/x', 'read')).toBe(true);
    expect(a.allows('secret/a/b/x', 'read')).toBe(false);
    expect(a.allows('secret/a/x/y', 'read')).toBe(false);
    expect(a.allows('secret/x', 'read')).toBe(false);
    expect(a.allows('other/a/x', 'read')).toBe(false);
  });

  it('matches a leading + segment and several + segments', () => {
    const a = acl({ '+/config': ['read'], 'kv/+/+/end': ['update'] });
    expect(a.allows('aws/config', 'read')).toBe(true);
    expect(a.allows('aws/sub/config', 'read')).toBe(false);
    expect(a.allows('kv/a/b/end', 'update')).toBe(true);
    expect(a.allows('kv/a/end', 'update')).toBe(false);
  });

  it('combines + with a trailing *', () => {
    const a = acl({ 'secret/+/*': ['list'], 'kv/+/ab*': ['read'] });
    expect(a.allows('secret/a/', 'list')).toBe(true);
    expect(a.allows('secret/a/b/c', 'list')).toBe(true);
    expect(a.allows('secret/a', 'list')).toBe(false);
    expect(a.allows('kv/x/abc', 'read')).toBe(true);
    expect(a.allows('kv/x/abc/more', 'read')).toBe(true);
    expect(a.allows('kv/x/a', 'read')).toBe(false);
  });

  it('strips leading slashes from request paths', () => {
    expect(acl({ 'secret/a': ['read'] }).allows('/secret/a', 'read')).toBe(true);
  });

  it('grants nothing when no rule matches', () => {
    const a = acl({ 'secret/a': ['read'] });
    expect(caps(a, 'other')).toEqual([]);
    expect(a.allows('other', 'read')).toBe(false);
  });
});

describe('Acl paths: most specific rule wins', () => {
  it('an exact pattern beats every glob, and capabilities never combine across patterns', () => {
    const a = acl({ 'secret/a': ['read'], 'secret/*': ['list', 'update'], 'secret/+': ['delete'] });
    expect(caps(a, 'secret/a')).toEqual(['read']);
    expect(caps(a, 'secret/b')).toEqual(['delete']);
  });

  it('(1) a later first wildcard wins: secret/a/* beats secret/+/x', () => {
    const a = acl({ 'secret/+/x': ['read'], 'secret/a/*': ['list'] });
    expect(caps(a, 'secret/a/x')).toEqual(['list']);
    expect(caps(a, 'secret/b/x')).toEqual(['read']);
  });

  it('(1) also between prefix and segment globs: secret/a* beats secret/+', () => {
    const a = acl({ 'secret/+': ['read'], 'secret/a*': ['list'] });
    expect(caps(a, 'secret/abc')).toEqual(['list']);
    expect(caps(a, 'secret/xyz')).toEqual(['read']);
  });

  it('(1) the longest prefix wins among plain prefixes', () => {
    const a = acl({ 'secret/*': ['read'], 'secret/team/*': ['list'], 'secret/team/x*': ['update'] });
    expect(caps(a, 'secret/other')).toEqual(['read']);
    expect(caps(a, 'secret/team/y')).toEqual(['list']);
    expect(caps(a, 'secret/team/xy')).toEqual(['update']);
  });

  it('(2) with the same first wildcard, no trailing * wins: secret/+/bar beats secret/+/ba*', () => {
    const a = acl({ 'secret/+/ba*': ['list'], 'secret/+/bar': ['read'] });
    expect(caps(a, 'secret/x/bar')).toEqual(['read']);
    expect(caps(a, 'secret/x/baz')).toEqual(['list']);
  });

  it('(2) secret/+ beats secret/*', () => {
    const a = acl({ 'secret/*': ['list'], 'secret/+': ['read'] });
    expect(caps(a, 'secret/a')).toEqual(['read']);
    expect(caps(a, 'secret/a/b')).toEqual(['list']);
  });

  it('(3) fewer + segments win: secret/+/b/c beats secret/+/+/c', () => {
    const a = acl({ 'secret/+/+/c': ['list'], 'secret/+/b/c': ['read'] });
    expect(caps(a, 'secret/a/b/c')).toEqual(['read']);
    expect(caps(a, 'secret/a/z/c')).toEqual(['list']);
  });

  it('(4) the longer pattern wins: secret/+/bar/ba* beats secret/+/bar/b*', () => {
    const a = acl({ 'secret/+/bar/b*': ['list'], 'secret/+/bar/ba*': ['read'] });
    expect(caps(a, 'secret/x/bar/baz')).toEqual(['read']);
    expect(caps(a, 'secret/x/bar/bz')).toEqual(['list']);
  });

  it('(5) otherwise the lexicographically greater pattern wins, whatever the policy order', () => {
    // Same first wildcard (0), both exact-length, two + each, same length: "+/b/+" > "+/+/c".
    const rules: Record<string, string[]>[] = [{ '+/+/c': ['list'] }, { '+/b/+': ['read'] }];
    expect(caps(acl(...rules), 'a/b/c')).toEqual(['read']);
    expect(caps(acl(...[...rules].reverse()), 'a/b/c')).toEqual(['read']);
  });

  it('a matching rule with no capabilities shadows broader grants', () => {
    const a = acl({ 'secret/*': ['read'], 'secret/locked': [] });
    expect(caps(a, 'secret/locked')).toEqual([]);
    expect(a.allows('secret/locked', 'read')).toBe(false);
    expect(a.allows('secret/open', 'read')).toBe(true);
  });
});

describe('Acl paths: merging and deny', () => {
  it('unions identical patterns across policies', () => {
    const a = acl({ 'secret/*': ['read'] }, { 'secret/*': ['list', 'update'] });
    expect(caps(a, 'secret/x')).toEqual(['list', 'read', 'update']);
  });

  it('a deny on an identical pattern in any policy wins, in either order', () => {
    for (const a of [acl({ 'secret/*': ['read'] }, { 'secret/*': ['deny'] }), acl({ 'secret/*': ['deny'] }, { 'secret/*': ['read'] })]) {
      expect(caps(a, 'secret/x')).toEqual(['deny']);
      expect(a.allows('secret/x', 'read')).toBe(false);
    }
  });

  it('deny alongside other capabilities in one rule leaves only deny', () => {
    const a = acl({ 'secret/x': ['read', 'deny', 'sudo'] });
    expect(caps(a, 'secret/x')).toEqual(['deny']);
    expect(a.allows('secret/x', 'sudo')).toBe(false);
  });

  it('a more specific deny carves a hole; a less specific deny does not override a specific grant', () => {
    const a = acl({ 'secret/*': ['read'] }, { 'secret/private/*': ['deny'], 'kv/*': ['deny'], 'kv/public': ['read'] });
    expect(a.allows('secret/public/x', 'read')).toBe(true);
    expect(a.allows('secret/private/x', 'read')).toBe(false);
    expect(a.allows('kv/public', 'read')).toBe(true);
    expect(a.allows('kv/other', 'read')).toBe(false);
  });

  it('merges a pattern written with and without a leading slash (the parser normalises it)', async () => {
    const a = Acl.fromPolicies([
      await parsePolicy('a', 'path "/secret/*" {\n capabilities = ["read"]\n}\n'),
      await parsePolicy('b', 'path "secret/*" {\n capabilities = ["list"]\n}\n'),
    ]);
    expect(caps(a, 'secret/x')).toEqual(['list', 'read']);
  });
});

describe('Acl paths: list requests', () => {
  it('a list of "foo/" is allowed by an exact rule on "foo"', () => {
    const a = acl({ 'secret/foo': ['list'] });
    expect(a.allows('secret/foo/', 'list')).toBe(true);
    expect(caps(a, 'secret/foo/')).toEqual(['list']);
    // The fallback is for list only: other operations on "foo/" need a rule that matches "foo/".
    expect(acl({ 'secret/foo': ['read'] }).allows('secret/foo/', 'read')).toBe(false);
  });

  it('checks globs against the path without the trailing slash first', () => {
    const a = acl({ 'secret/+': ['list'], 'secret/*': ['read'] });
    expect(a.allows('secret/a/', 'list')).toBe(true);
    expect(a.allows('secret/a/', 'read')).toBe(true);
  });

  it('still matches globs that need the trailing slash', () => {
    expect(acl({ 'secret/a/*': ['list'] }).allows('secret/a/', 'list')).toBe(true);
  });
});

describe('Acl: root', () => {
  it('allows everything, reports every capability, and ignores deny rules in other policies', () => {
    const a = Acl.fromPolicies([policy('root', {}), policy('locked', { '*': ['deny'] })]);
    expect(a.root).toBe(true);
    expect(caps(a, 'anything')).toEqual(['create', 'delete', 'list', 'patch', 'read', 'sudo', 'update']);
    expect(a.allows('sys/anything', 'sudo')).toBe(true);
    expect(a.allowsNamespace('prod', 'alloc-node-exec')).toBe(true);
    expect(a.canAccessNamespace('prod')).toBe(true);
    expect(a.namespaceCapabilities('prod').has('policy-override')).toBe(true);
    expect(a.namespaceCapabilities('prod').has('deny')).toBe(false);
  });

  it('is not root without a policy named root', () => {
    const a = acl({ '*': ['read', 'update', 'sudo'] });
    expect(a.root).toBe(false);
    expect(a.allows('x', 'delete')).toBe(false);
  });

  it('lists policy names once each, in order', () => {
    const a = Acl.fromPolicies([policy('b', {}), policy('a', {}), policy('b', {})]);
    expect(a.policyNames).toEqual(['b', 'a']);
  });
});

describe('Acl: list requests cannot escape a more specific deny', () => {
  it('a deny on the listed prefix beats a broader glob that matches the trimmed path', () => {
    const a = acl({ 'sys/*': ['list', 'read'], 'sys/policies/acl/*': ['deny'] });
    expect(a.allows('sys/policies/acl/', 'list')).toBe(false);
    expect(a.allows('sys/other/', 'list')).toBe(true);
  });
});
