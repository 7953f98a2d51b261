import { describe, it, expect } from 'vitest';
import type { CommandSpec, FlagSpec } from '../../src/cli/define.js';
import { formatProse, renderCommandHelp, renderFlagHelp, renderGroupHelp, renderRootHelp, wrap } from '../../src/cli/output/help.js';

const SETS = {
  http: {
    title: 'HTTP Options',
    flags: [
      { name: 'address', type: 'string', env: 'SVC_ADDR', default: 'http://127.0.0.1:4646', description: 'Address of the svc server.' },
      { name: 'no-color', type: 'bool', description: 'Disable colour.' },
    ] as FlagSpec[],
  },
  output: {
    title: 'Output Options',
    flags: [{ name: 'format', type: 'string', default: 'table', choices: ['table', 'json', 'yaml'], description: 'Print the output in the given format.' }] as FlagSpec[],
  },
};

function command(extra: Partial<CommandSpec> = {}): CommandSpec {
  return {
    path: ['token', 'create'],
    synopsis: 'Create a new token',
    usage: 'svc token create [options] [k=v ...]',
    description: 'Creates a new token that can be used for authentication.',
    family: 'secrets',
    run: async () => 0,
    ...extra,
  };
}

describe('wrap and formatProse', () => {
  it('wraps at 80 columns including the indent', () => {
    const text = Array.from({ length: 40 }, (_, i) => `word${i}`).join(' ');
    const lines = wrap(text, 4).split('\n');
    expect(lines.length).toBeGreaterThan(1);
    for (const line of lines) {
      expect(line.length).toBeLessThanOrEqual(80);
      expect(line.startsWith('    ')).toBe(true);
      expect(line.startsWith('     ')).toBe(false);
    }
    expect(lines.join(' ').replace(/\s+/g, ' ').trim()).toBe(text);
  });

  it('puts a word longer than the width on its own line', () => {
    const long = 'x'.repeat(90);
    expect(wrap(`a ${long} b`, 2)).toBe(`  a\n  ${long}\n  b`);
  });

  it('reflows prose paragraphs and keeps list and command lines', () => {
    const text = 'First paragraph\nhand wrapped.\n\n- item one\n- item two\n\n    $ svc token create -policy=foo -policy=bar -metadata=user=someone -ttl=72h -explicit-max-ttl=100h';
    expect(formatProse(text)).toBe(
      '  First paragraph hand wrapped.\n\n  - item one\n  - item two\n\n      $ svc token create -policy=foo -policy=bar -metadata=user=someone -ttl=72h -explicit-max-ttl=100h',
    );
  });
});

describe('renderFlagHelp', () => {
  it('shows a value flag with its type, default and env var', () => {
    expect(renderFlagHelp(SETS.http.flags[0])).toBe(
      '  -address=<string>\n    Address of the svc server. The default is http://127.0.0.1:4646. This can\n    also be specified via the SVC_ADDR environment variable.',
    );
  });

  it('shows a bool flag without a type', () => {
    expect(renderFlagHelp({ name: 'detach', type: 'bool', description: 'Return at once.' })).toBe('  -detach\n    Return at once.');
  });

  it('shows aliases, types of int/duration/strings flags and choices', () => {
    expect(renderFlagHelp({ name: 'tty', type: 'bool', aliases: ['t'], description: 'Allocate a TTY.' }).split('\n')[0]).toBe('  -tty, -t');
    expect(renderFlagHelp({ name: 'count', type: 'int', description: 'N.' }).split('\n')[0]).toBe('  -count=<int>');
    expect(renderFlagHelp({ name: 'ttl', type: 'duration', description: 'TTL.' }).split('\n')[0]).toBe('  -ttl=<duration>');
    expect(renderFlagHelp({ name: 'policy', type: 'strings', description: 'P.' }).split('\n')[0]).toBe('  -policy=<string>');
    expect(renderFlagHelp(SETS.output.flags[0])).toContain('Valid values are "table", "json",\n    "yaml". The default is table.');
  });

  it('shows list defaults and omits empty ones', () => {
    expect(renderFlagHelp({ name: 'p', type: 'strings', description: 'P.', default: ['a', 'b'] })).toContain('The default is a, b.');
    expect(renderFlagHelp({ name: 'p', type: 'strings', description: 'P.', default: [] })).not.toContain('default');
    expect(renderFlagHelp({ name: 's', type: 'string', description: 'S.', default: '' })).not.toContain('default');
    expect(renderFlagHelp({ name: 'b', type: 'bool', description: 'B.', default: false })).toContain('The default is false.');
  });

  it('wraps descriptions at 80 columns with a 4-space indent', () => {
    const flag: FlagSpec = { name: 'x', type: 'string', description: 'lorem ipsum dolor '.repeat(12) };
    const lines = renderFlagHelp(flag).split('\n').slice(1);
    expect(lines.length).toBeGreaterThan(2);
    for (const line of lines) {
      expect(line.length).toBeLessThanOrEqual(80);
      expect(line).toMatch(/^ {4}\S/);
    }
  });
});

describe('renderCommandHelp', () => {
  it('prints usage, description, examples, flag sections and exit codes in order', () => {
    const text = renderCommandHelp(
      command({
        flagSets: ['http', 'output'],
        flags: [
          { name: 'policy', type: 'strings', description: 'Policy to attach.' },
          { name: 'secret', type: 'bool', description: 'hidden', hidden: true },
          { name: 'orphan', type: 'bool', description: 'No parent.', group: 'Advanced Options' },
        ],
        examples: [{ command: 'svc token create -policy=foo', description: 'Create a token with policy foo:' }, { command: 'token create' }],
        exitCodes: { 2: 'server error', 0: 'success', 1: 'local error' },
      }),
      SETS,
    );
    expect(text).toBe(
      [
        'Usage: svc token create [options] [k=v ...]',
        '',
        '  Creates a new token that can be used for authentication.',
        '',
        'Examples:',
        '',
        '  Create a token with policy foo:',
        '',
        '  $ svc token create -policy=foo',
        '',
        '  $ svc token create',
        '',
        'HTTP Options:',
        '',
        '  -address=<string>',
        '    Address of the svc server. The default is http://127.0.0.1:4646. This can',
        '    also be specified via the SVC_ADDR environment variable.',
        '',
        '  -no-color',
        '    Disable colour.',
        '',
        'Output Options:',
        '',
        '  -format=<string>',
        '    Print the output in the given format. Valid values are "table", "json",',
        '    "yaml". The default is table.',
        '',
        'Command Options:',
        '',
        '  -policy=<string>',
        '    Policy to attach.',
        '',
        'Advanced Options:',
        '',
        '  -orphan',
        '    No parent.',
        '',
        'Exit codes:',
        '',
        '  0  success',
        '  1  local error',
        '  2  server error',
        '',
      ].join('\n'),
    );
  });

  it('merges a command flag into the section of its group and lets it override a common flag', () => {
    const text = renderCommandHelp(
      command({ flagSets: ['http'], flags: [{ name: 'address', type: 'string', description: 'Overridden.', group: 'HTTP Options' }] }),
      SETS,
    );
    expect(text.match(/HTTP Options:/g)).toHaveLength(1);
    expect(text).toContain('  -address=<string>\n    Overridden.');
    expect(text).not.toContain('Address of the svc server.');
    expect(text).not.toContain('Command Options:');
  });

  it('omits sections that are empty and skips unknown flag sets', () => {
    const text = renderCommandHelp(command({ flagSets: ['scheduler-output'] }), SETS);
    expect(text).toBe('Usage: svc token create [options] [k=v ...]\n\n  Creates a new token that can be used for authentication.\n');
  });

  it('falls back to the synopsis when there is no description', () => {
    expect(renderCommandHelp(command({ description: '' }), SETS)).toContain('\n\n  Create a new token\n');
  });

  it('aligns multi-digit exit codes', () => {
    const text = renderCommandHelp(command({ exitCodes: { 0: 'no changes', 255: 'error' } }), SETS);
    expect(text).toContain('Exit codes:\n\n  0    no changes\n  255  error\n');
  });
});

describe('renderGroupHelp', () => {
  it('prints Vault-style group help with aligned subcommands', () => {
    const text = renderGroupHelp(['token'], 'Interact with tokens', 'This command groups subcommands for interacting with tokens.', [
      { name: 'create', synopsis: 'Create a new token' },
      { name: 'capabilities', synopsis: 'Print capabilities of a token on a path' },
    ]);
    expect(text).toBe(
      [
        'Usage: svc token <subcommand> [options] [args]',
        '',
        '  This command groups subcommands for interacting with tokens.',
        '',
        'Subcommands:',
        '    create          Create a new token',
        '    capabilities    Print capabilities of a token on a path',
        '',
      ].join('\n'),
    );
  });

  it('uses the synopsis when there is no description, and nested paths', () => {
    const text = renderGroupHelp(['identity', 'entity-alias'], 'Manage entity aliases', '', []);
    expect(text).toBe('Usage: svc identity entity-alias <subcommand> [options] [args]\n\n  Manage entity aliases\n');
  });
});

describe('renderRootHelp', () => {
  const commands = [
    { name: 'auth', synopsis: 'Interact with auth methods' },
    { name: 'job', synopsis: 'Interact with jobs' },
    { name: 'version', synopsis: 'Print the version' },
  ];

  it('lists every command', () => {
    expect(renderRootHelp(commands)).toBe(
      [
        'Usage: svc <command> [options] [args]',
        '',
        'Commands:',
        '    auth       Interact with auth methods',
        '    job        Interact with jobs',
        '    version    Print the version',
        '',
        'Run "svc <command> -help" for more on a command.',
        '',
      ].join('\n'),
    );
  });

  it('splits common and other commands with one alignment, after a description', () => {
    const text = renderRootHelp(commands, { common: ['job'], description: 'One program for secrets and jobs.' });
    expect(text).toContain('\n\n  One program for secrets and jobs.\n\nCommon commands:\n    job        Interact with jobs\n\nOther commands:\n    auth       Interact');
    expect(text).toContain('    version    Print the version\n');
  });
});

describe('examples', () => {
  const examples = [
    { command: 'echo "$TOKEN" | svc login -' },
    { command: 'source <(svc completion bash)' },
    { command: '$ svc token lookup' },
    { command: 'token create' },
  ];

  it('prints a shell line that runs svc as written, and puts svc before a bare command', () => {
    const text = renderCommandHelp(command({ examples }), SETS);
    expect(text).toContain('  $ echo "$TOKEN" | svc login -\n');
    expect(text).toContain('  $ source <(svc completion bash)\n');
    expect(text).toContain('  $ svc token lookup\n');
    expect(text).toContain('  $ svc token create\n');
    expect(text).not.toContain('svc echo');
    expect(text).not.toContain('svc source');
  });

  it('does the same in the man page', async () => {
    const { renderManPage } = await import('../../src/cli/docs/man.js');
    const page = renderManPage(command({ examples }), SETS);
    expect(page).toContain('$ echo "$TOKEN" | svc login \\-\n');
    expect(page).toContain('$ source <(svc completion bash)\n');
    expect(page).toContain('$ svc token create\n');
    expect(page).not.toContain('svc echo');
  });
});
