import { describe, expect, it } from 'vitest';
import { formatHcl } from '../../../src/shared/hcl/format.js';

describe('formatHcl', () => {
  it('indents by nesting, spaces tokens canonically and aligns the = of consecutive attributes', () => {
    const messy = [
      '',
      '# Read the secrets',
      'path   "secret/*"{',
      'capabilities=["read","list"]',
      '    min_wrapping_ttl = "1h"   # trailing',
      '}',
      '',
      '',
      '',
      'path "sys/auth/cloud" { capabilities = [ "update" ] }',
      'node {',
      'policy="read"',
      '}',
      '',
    ].join('\n');
    expect(formatHcl(messy)).toBe(
      [
        '# Read the secrets',
        'path "secret/*" {',
        '  capabilities     = ["read", "list"]',
        '  min_wrapping_ttl = "1h" # trailing',
        '}',
        '',
        'path "sys/auth/cloud" { capabilities = ["update"] }',
        'node {',
        '  policy = "read"',
        '}',
        '',
      ].join('\n'),
    );
  });

  it('keeps heredocs, block comments and quoted text as they are', () => {
    const text = ['namespace "a" {', '      x = <<EOT', '  keep   this', '', '', '  as is', 'EOT', '}', '/* block', '     comment */', 'path "a b  =c" { capabilities = ["deny"] }', ''].join('\n');
    expect(formatHcl(text)).toBe(['namespace "a" {', '  x = <<EOT', '  keep   this', '', '', '  as is', 'EOT', '}', '/* block', '     comment */', 'path "a b  =c" { capabilities = ["deny"] }', ''].join('\n'));
  });

  it('breaks alignment at a blank line, a block or another depth, and lists over lines indent', () => {
    const text = ['a = 1', 'long_name = 2', '', 'bb = 3', 'x {', 'c = [', '"r",', '"l",', ']', '}', ''].join('\n');
    expect(formatHcl(text)).toBe(['a         = 1', 'long_name = 2', '', 'bb = 3', 'x {', '  c = [', '    "r",', '    "l",', '  ]', '}', ''].join('\n'));
  });

  it('is idempotent', () => {
    const once = formatHcl('path "a/*" {\ncapabilities = ["read"]\n  # note\nx=1\n}\n');
    expect(formatHcl(once)).toBe(once);
  });
});
