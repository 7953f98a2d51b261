/**
 * A policy's errors name line and column, in JSON as in HCL: syntax errors, and each check's, at the
 * block, key or value it is about, however deep.
 */
import { describe, expect, it } from 'vitest';
import { parseError } from './parse-error.js';

const message = async (text: string) => (await parseError(text)).message;

describe('policy error positions', () => {
  it('cites a check deep in a JSON policy at its block', async () => {
    const text = [
      '{',
      '  "path": [',
      '    {"a": {"capabilities": ["read"]}},',
      '    {"b": [',
      '      {"capabilities": ["read"]},',
      '      {"capabilities": ["read"], "max_wrapping_ttl": "1h"}',
      '    ]}',
      '  ]',
      '}',
    ].join('\n');
    expect(await message(text)).toBe('failed to parse policy "p": line 6, column 7: path "b": unknown attribute "max_wrapping_ttl": only "capabilities" is supported');
  });

  it('cites the same check in an HCL policy at its block', async () => {
    const text = 'path "a" {\n  capabilities = ["read"]\n}\n\npath "b" {\n  capabilities = ["read"]\n}\n  path "b" {\n  capabilities = ["read"]\n  max_wrapping_ttl = "1h"\n}\n';
    expect(await message(text)).toBe('failed to parse policy "p": line 8, column 3: path "b": unknown attribute "max_wrapping_ttl": only "capabilities" is supported');
  });

  it('cites a JSON block at its label, and its escapes do not hide it', async () => {
    const text = '{\n  "namespace": {\n    "default": {"policy": "read"},\n    "a\\/b": {"policy": "read"}\n  }\n}';
    expect(await message(text)).toBe('failed to parse policy "p": line 4, column 5: namespace "a/b": invalid namespace name: use 1-128 letters, digits, "-" or "*"');
    expect(await message('{\n  "path": {"a": 5}}')).toBe('failed to parse policy "p": line 2, column 12: path "a": expected a block body');
  });

  it('cites a top-level JSON key as it cites an HCL one', async () => {
    expect(await message('{\n  "path": {},\n  "operator": {"policy": "read"}\n}')).toBe(
      'failed to parse policy "p": line 3, column 3: unknown top-level key "operator": only "path", "namespace", "node" and "agent" blocks are allowed',
    );
    expect(await message('path "a" {\n}\n\noperator {\n  policy = "read"\n}\n')).toBe(
      'failed to parse policy "p": line 4, column 1: unknown top-level key "operator": only "path", "namespace", "node" and "agent" blocks are allowed',
    );
    expect(await message('{"path": "x"}')).toBe('failed to parse policy "p": line 1, column 2: "path" must be a labeled block, as in path "<pattern>" { ... }');
  });

  it('cites an HCL block with one label too many at that block', async () => {
    expect(await message('path "x" {\n  capabilities = ["read"]\n}\n\npath "a" "b" {\n  capabilities = ["read"]\n}\n')).toBe(
      'failed to parse policy "p": line 5, column 1: path "a": unknown attribute "b": only "capabilities" is supported',
    );
  });

  it('cites an HCL policy in attribute form at the key', async () => {
    expect(await message('path = {\n  "a" = { capabilities = ["nope"] }\n}\n')).toBe(
      'failed to parse policy "p": line 2, column 3: path "a": unknown capability "nope" (valid: create, read, update, patch, delete, list, sudo, deny)',
    );
  });

  it('cites every JSON syntax error, whether or not V8 names its offset', async () => {
    expect(await message('{\n  "path": {\n    "a": {"capabilities": ["read",]}\n  }\n}')).toBe(
      'failed to parse policy "p": line 3, column 35: invalid JSON: Unexpected token \']\', ...": ["read",]}\n  }\n}" is not valid JSON',
    );
    expect(await message('{\n  "path": {\n    "a": {"capabilities": ["read"]\n  }\n}')).toBe(
      'failed to parse policy "p": line 5, column 2: invalid JSON: Expected \',\' or \'}\' after property value in JSON at position 54',
    );
    expect(await message('{\n  "path": ')).toBe('failed to parse policy "p": line 2, column 11: invalid JSON: Unexpected end of JSON input');
  });

  it('cites an HCL syntax error the same way', async () => {
    expect(await message('path "a" {\n  capabilities = ["read",\n}\n')).toMatch(/^failed to parse policy "p": line 3, column 1: /);
  });
});
