import { describe, it, expect } from 'vitest';
import { Acl } from '../../../src/secrets/policy/acl.js';
import {
  DEFAULT_POLICY,
  DEFAULT_POLICY_TEXT,
  ROOT_POLICY,
  ROOT_POLICY_NAME,
  assertPolicyDeletable,
  assertPolicyWritable,
  isBuiltinImmutable,
  isBuiltinUndeletable,
} from '../../../src/secrets/policy/builtin.js';
import { parsePolicy } from '../../../src/secrets/policy/policy.js';
import { UserError } from '../../../src/shared/errors.js';

describe('built-in policies', () => {
  it('DEFAULT_POLICY is exactly what DEFAULT_POLICY_TEXT parses to', async () => {
    expect(await parsePolicy('default', DEFAULT_POLICY_TEXT)).toEqual(DEFAULT_POLICY);
  });

  it('default lets a token manage itself and nothing else', () => {
    const a = Acl.fromPolicies([DEFAULT_POLICY]);
    expect(a.root).toBe(false);
    expect(a.allows('auth/token/lookup-self', 'read')).toBe(true);
    expect(a.allows('auth/token/renew-self', 'update')).toBe(true);
    expect(a.allows('auth/token/revoke-self', 'update')).toBe(true);
    expect(a.allows('sys/capabilities-self', 'update')).toBe(true);
    expect(a.allows('sys/internal/ui/resultant-acl', 'read')).toBe(true);
    expect(a.allows('sys/internal/ui/format-policy', 'update')).toBe(true);

    expect(a.allows('auth/token/lookup-self', 'update')).toBe(false);
    expect(a.allows('auth/token/create', 'update')).toBe(false);
    expect(a.allows('auth/token/create', 'create')).toBe(false);
    expect(a.allows('sys/policies/acl/default', 'read')).toBe(false);
  });

  it('default grants no scheduler namespace', () => {
    const a = Acl.fromPolicies([DEFAULT_POLICY]);
    expect(a.canAccessNamespace('default')).toBe(false);
    expect(a.canAccessNamespace('*')).toBe(false);
    expect(a.allowsNamespace('default', 'read-job')).toBe(false);
    expect(a.allowsNamespace('default', 'list-jobs')).toBe(false);
  });

  it('root makes the Acl root', () => {
    expect(ROOT_POLICY.name).toBe(ROOT_POLICY_NAME);
    const a = Acl.fromPolicies([ROOT_POLICY]);
    expect(a.root).toBe(true);
    expect(a.allows('auth/token/create', 'sudo')).toBe(true);
  });

  it('root cannot be written or deleted; default can be rewritten but not deleted', () => {
    expect(isBuiltinImmutable('root')).toBe(true);
    expect(isBuiltinImmutable(' ROOT ')).toBe(true);
    expect(isBuiltinImmutable('default')).toBe(false);
    expect(isBuiltinUndeletable('root')).toBe(true);
    expect(isBuiltinUndeletable('Default')).toBe(true);
    expect(isBuiltinUndeletable('ops')).toBe(false);

    expect(() => assertPolicyWritable('root')).toThrow(UserError);
    expect(() => assertPolicyWritable('default')).not.toThrow();
    expect(() => assertPolicyDeletable('default')).toThrow(/cannot delete "default" policy/);
    expect(() => assertPolicyDeletable('root')).toThrow(/cannot delete "root" policy/);
    expect(() => assertPolicyDeletable('ops')).not.toThrow();
  });
});
