/** Vault's go-glob matching, used for role policy globs and allowed entity aliases. */
import { describe, expect, it } from 'vitest';
import { globMatch } from '../../../src/secrets/token/glob.js';

describe('globMatch', () => {
  it.each([
    ['*', 'anything', true],
    ['dev-*', 'dev-a', true],
    ['dev-*', 'prod-a', false],
    ['*-ops', 'team-ops', true],
    ['a*b*c', 'axxbyyc', true],
    ['a*b*c', 'acb', false],
    ['ab*ba', 'aba', false],
    ['exact', 'exact', true],
    ['exact', 'exactly', false],
    ['', '', true],
    ['', 'x', false],
  ])('%s against %s: %s', (pattern, subject, expected) => {
    expect(globMatch(pattern, subject)).toBe(expected);
  });
});
