import { describe, it, expect } from 'vitest';
import {
  ALL_NAMESPACE_GRANTS,
  ALL_PATH_GRANTS,
  NAMESPACE_CAPABILITIES,
  NAMESPACE_POLICY_SHORTCUTS,
  PATH_CAPABILITIES,
  expandNamespacePolicy,
  isNamespaceCapability,
  isPathCapability,
} from '../../../src/secrets/policy/capabilities.js';

describe('capabilities', () => {
  it('lists Vault path capabilities', () => {
    expect([...PATH_CAPABILITIES].sort()).toEqual(['create', 'delete', 'deny', 'list', 'patch', 'read', 'sudo', 'update']);
    expect(ALL_PATH_GRANTS).not.toContain('deny');
    expect(isPathCapability('sudo')).toBe(true);
    expect(isPathCapability('root')).toBe(false);
  });

  it('lists Nomad namespace capabilities with policy-override instead of sentinel-override', () => {
    expect(NAMESPACE_CAPABILITIES).toHaveLength(22);
    expect(isNamespaceCapability('policy-override')).toBe(true);
    expect(isNamespaceCapability('sentinel-override')).toBe(false);
    expect(ALL_NAMESPACE_GRANTS).not.toContain('deny');
  });

  it('expands only known shortcuts, and not inherited object keys', () => {
    expect(expandNamespacePolicy('deny')).toEqual(['deny']);
    expect(expandNamespacePolicy('admin')).toBeUndefined();
    expect(expandNamespacePolicy('toString')).toBeUndefined();
    expect(expandNamespacePolicy('')).toBeUndefined();
  });

  it('makes write a superset of read, and every shortcut uses valid capabilities', () => {
    for (const c of NAMESPACE_POLICY_SHORTCUTS.read) expect(NAMESPACE_POLICY_SHORTCUTS.write).toContain(c);
    for (const caps of Object.values(NAMESPACE_POLICY_SHORTCUTS)) {
      for (const c of caps) expect(isNamespaceCapability(c)).toBe(true);
      expect(new Set(caps).size).toBe(caps.length);
    }
  });
});
