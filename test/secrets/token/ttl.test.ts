import { describe, expect, it } from 'vitest';
import { calculateTtl, sanitizePolicies, SYSTEM_DEFAULT_TTL, SYSTEM_MAX_TTL } from '../../../src/secrets/token/token-store.js';
import { UserError } from '../../../src/shared/errors.js';

const NOW = 1_700_000_000_000;
const base = { increment: 0, backendTtl: 0, period: 0, backendMaxTtl: 0, explicitMaxTtl: 0, startMs: NOW, nowMs: NOW };

describe('sanitizePolicies', () => {
  it('trims, lower-cases, drops empties, de-duplicates and sorts', () => {
    expect(sanitizePolicies([' Ops', 'dev', '', 'ops', 'DEV'], false)).toEqual(['dev', 'ops']);
  });

  it('adds default when asked, once', () => {
    expect(sanitizePolicies(['ops'], true)).toEqual(['default', 'ops']);
    expect(sanitizePolicies(['default', 'ops'], true)).toEqual(['default', 'ops']);
    expect(sanitizePolicies([], true)).toEqual(['default']);
  });

  it('lets root swallow every other policy, default included', () => {
    expect(sanitizePolicies(['ops', 'root', 'dev'], true)).toEqual(['root']);
  });
});

describe('calculateTtl', () => {
  it('uses the system default when no TTL is asked for', () => {
    expect(calculateTtl(base)).toEqual({ ttl: SYSTEM_DEFAULT_TTL, warnings: [] });
  });

  it('uses the requested TTL, and an increment over it', () => {
    expect(calculateTtl({ ...base, backendTtl: 600 }).ttl).toBe(600);
    expect(calculateTtl({ ...base, backendTtl: 600, increment: 60 }).ttl).toBe(60);
  });

  it('caps at the system max with a warning', () => {
    const r = calculateTtl({ ...base, backendTtl: SYSTEM_MAX_TTL + 10 });
    expect(r.ttl).toBe(SYSTEM_MAX_TTL);
    expect(r.warnings[0]).toMatch(/capped/);
  });

  it('caps at the auth method max and at the explicit max, whichever is lower', () => {
    expect(calculateTtl({ ...base, backendTtl: 7200, backendMaxTtl: 3600 }).ttl).toBe(3600);
    expect(calculateTtl({ ...base, backendTtl: 7200, backendMaxTtl: 3600, explicitMaxTtl: 1800 }).ttl).toBe(1800);
  });

  it('counts the max from the issue time, so a later renewal gets what is left', () => {
    const r = calculateTtl({ ...base, increment: 3600, explicitMaxTtl: 3600, nowMs: NOW + 3000 * 1000 });
    expect(r.ttl).toBe(600);
  });

  it('refuses a renewal past the max TTL', () => {
    expect(() => calculateTtl({ ...base, increment: 60, explicitMaxTtl: 60, nowMs: NOW + 61_000 })).toThrow(UserError);
  });

  it('gives periodic tokens their period whatever the increment, capped by the max', () => {
    expect(calculateTtl({ ...base, period: 1800, increment: 36000 }).ttl).toBe(1800);
    expect(calculateTtl({ ...base, period: SYSTEM_MAX_TTL * 2 }).ttl).toBe(SYSTEM_MAX_TTL);
  });

  it('lets periodic tokens outlive the system max, but not their explicit max', () => {
    const later = NOW + (SYSTEM_MAX_TTL + 100) * 1000;
    expect(calculateTtl({ ...base, period: 1800, nowMs: later }).ttl).toBe(1800);
    expect(() => calculateTtl({ ...base, period: 1800, explicitMaxTtl: SYSTEM_MAX_TTL, nowMs: later })).toThrow(UserError);
  });
});
