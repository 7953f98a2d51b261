/**
 * Every secrets API path answers `path-help` and feeds the OpenAPI document from its declaration, so
 * each must describe itself, its operations and its fields.
 */
import { describe, expect, it } from 'vitest';
import { sysBackend } from '../../src/secrets/sys/backend.js';
import { identityBackend } from '../../src/secrets/identity/backend.js';
import { tokenBackend } from '../../src/secrets/token/backend.js';
import { AUTH_METHOD_TYPES, createAuthMethods } from '../../src/secrets/auth/backends.js';
import type { Backend } from '../../src/secrets/framework/path.js';

const backends: Array<[string, Backend]> = [
  ['sys/', sysBackend],
  ['identity/', identityBackend],
  ['auth/token/', tokenBackend],
  ...Object.entries(createAuthMethods()).map(([type, m]) => [`auth/${type}/`, m.backend] as [string, Backend]),
];
const paths = backends.flatMap(([mount, b]) => b.paths.map((def) => [`${mount}${def.pattern}`, def] as const));

describe('secrets backends', () => {
  it.each(backends)('%s has a type and a description', (_mount, backend) => {
    expect(backend.type.trim()).not.toBe('');
    expect(backend.description.trim()).not.toBe('');
  });

  it('the auth method types mountable are the methods a server builds', () => {
    expect(Object.keys(createAuthMethods()).sort()).toEqual([...AUTH_METHOD_TYPES].sort());
  });

  it('the fixed backends serve paths', () => {
    for (const b of [sysBackend, identityBackend, tokenBackend]) expect(b.paths.length, b.type).toBeGreaterThan(0);
  });

  it.each(paths)('%s documents itself, its operations and its fields', (_path, def) => {
    expect(def.synopsis.trim(), 'synopsis').not.toBe('');
    expect(def.description.trim(), 'description').not.toBe('');
    const ops = Object.entries(def.operations);
    expect(ops.length, 'no operations').toBeGreaterThan(0);
    for (const [op, o] of ops) expect(o?.summary.trim(), `operation ${op} has no summary`).toBeTruthy();
    for (const [name, field] of Object.entries(def.fields)) expect(field.description.trim(), `field ${name} has no description`).not.toBe('');
    for (const seg of def.pattern.split('/')) {
      if (seg.startsWith(':') || seg.startsWith('*')) expect(def.fields[seg.slice(1)], `parameter ${seg} has no field`).toBeDefined();
    }
    for (const [name, field] of Object.entries(def.fields)) {
      if (field.allowedValues && typeof field.default === 'string') {
        expect(field.allowedValues, `field ${name}'s default is not an allowed value`).toContain(field.default);
      }
    }
  });
});
