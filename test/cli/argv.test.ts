import { describe, it, expect } from 'vitest';
import { helpRequested, parseArgs } from '../../src/cli/argv.js';
import { parseGoBool as parseBool } from '../../src/shared/go-bool.js';
import type { FlagSpec } from '../../src/cli/define.js';
import { UsageError } from '../../src/shared/errors.js';

const FLAGS: FlagSpec[] = [
  { name: 'address', type: 'string', description: 'addr', env: 'SVC_ADDR', default: 'http://127.0.0.1:4646' },
  { name: 'detach', type: 'bool', description: 'detach' },
  { name: 'policy', type: 'strings', description: 'policies' },
  { name: 'count', type: 'int', description: 'count' },
  { name: 'ttl', type: 'duration', description: 'ttl' },
  { name: 'format', type: 'string', description: 'format', choices: ['table', 'json', 'yaml'], default: 'table', env: 'SVC_FORMAT' },
  { name: 'tty', type: 'bool', description: 'tty', aliases: ['t'] },
  { name: 'i', type: 'bool', description: 'stdin' },
  { name: 'task', type: 'string', description: 'task' },
];

async function usageError(parsing: Promise<unknown>): Promise<string> {
  try {
    await parsing;
  } catch (err) {
    expect(err).toBeInstanceOf(UsageError);
    return (err as Error).message;
  }
  throw new Error('expected a UsageError');
}

describe('parseArgs: flag syntax', () => {
  it('accepts -name and --name', async () => {
    expect((await parseArgs(['-detach'], FLAGS)).flags.detach).toBe(true);
    expect((await parseArgs(['--detach'], FLAGS)).flags.detach).toBe(true);
  });

  it('accepts -name=value and -name value, with one or two dashes', async () => {
    expect((await parseArgs(['-address=http://a:1'], FLAGS)).flags.address).toBe('http://a:1');
    expect((await parseArgs(['-address', 'http://b:2'], FLAGS)).flags.address).toBe('http://b:2');
    expect((await parseArgs(['--address=http://c:3'], FLAGS)).flags.address).toBe('http://c:3');
    expect((await parseArgs(['--address', 'http://d:4'], FLAGS)).flags.address).toBe('http://d:4');
  });

  it('keeps everything after the first = as the value, including an empty one', async () => {
    expect((await parseArgs(['-task=a=b'], FLAGS)).flags.task).toBe('a=b');
    expect((await parseArgs(['-task='], FLAGS)).flags.task).toBe('');
  });

  it('a non-bool flag takes the next argument whatever it looks like, as Go does', async () => {
    const parsed = await parseArgs(['-task', '-detach'], FLAGS);
    expect(parsed.flags.task).toBe('-detach');
    expect(parsed.flags.detach).toBeUndefined();
  });

  it('a repeated single-valued flag keeps the last value', async () => {
    expect((await parseArgs(['-task=a', '-task=b'], FLAGS)).flags.task).toBe('b');
  });

  it('rejects undefined flags', async () => {
    expect(await usageError(parseArgs(['-foo'], FLAGS))).toBe('flag provided but not defined: -foo');
    expect(await usageError(parseArgs(['--foo=1'], FLAGS))).toBe('flag provided but not defined: -foo');
  });

  it('rejects bad flag syntax', async () => {
    expect(await usageError(parseArgs(['---detach'], FLAGS))).toBe('bad flag syntax: ---detach');
    expect(await usageError(parseArgs(['-=x'], FLAGS))).toBe('bad flag syntax: -=x');
  });

  it('reports a flag missing its argument', async () => {
    expect(await usageError(parseArgs(['-address'], FLAGS))).toBe('flag needs an argument: -address');
    expect(await usageError(parseArgs(['--task'], FLAGS))).toBe('flag needs an argument: -task');
  });
});

describe('parseArgs: booleans', () => {
  it('accepts -flag, -flag=true and -flag=false', async () => {
    expect((await parseArgs(['-detach=true'], FLAGS)).flags.detach).toBe(true);
    expect((await parseArgs(['-detach=false'], FLAGS)).flags.detach).toBe(false);
    expect((await parseArgs(['--detach=false'], FLAGS)).flags.detach).toBe(false);
  });

  it("accepts Go's ParseBool spellings", async () => {
    for (const t of ['1', 't', 'T', 'TRUE', 'true', 'True']) expect(parseBool(t)).toBe(true);
    for (const f of ['0', 'f', 'F', 'FALSE', 'false', 'False']) expect(parseBool(f)).toBe(false);
    expect(parseBool('yes')).toBeUndefined();
    expect((await parseArgs(['-detach=0'], FLAGS)).flags.detach).toBe(false);
  });

  it('never consumes the next argument', async () => {
    const parsed = await parseArgs(['-detach', 'false'], FLAGS);
    expect(parsed.flags.detach).toBe(true);
    expect(parsed.args).toEqual(['false']);
  });

  it('rejects an invalid boolean value', async () => {
    expect(await usageError(parseArgs(['-detach=x'], FLAGS))).toBe('invalid boolean value "x" for -detach');
  });

  it('leaves an unset bool without default undefined, so "not given" differs from false', async () => {
    expect((await parseArgs([], FLAGS)).flags.detach).toBeUndefined();
    expect('detach' in (await parseArgs([], FLAGS)).flags).toBe(false);
  });
});

describe('parseArgs: typed values', () => {
  it('collects every occurrence of a strings flag in order', async () => {
    expect((await parseArgs(['-policy=a', '--policy', 'b', '-policy=c'], FLAGS)).flags.policy).toEqual(['a', 'b', 'c']);
  });

  it('gives an unset strings flag an empty list', async () => {
    expect((await parseArgs([], FLAGS)).flags.policy).toEqual([]);
  });

  it('a given strings flag replaces its default instead of appending', async () => {
    const flags: FlagSpec[] = [{ name: 'policy', type: 'strings', description: '', default: ['default'] }];
    expect((await parseArgs([], flags)).flags.policy).toEqual(['default']);
    expect((await parseArgs(['-policy=x'], flags)).flags.policy).toEqual(['x']);
  });

  it('does not share a default array between parses', async () => {
    const flags: FlagSpec[] = [{ name: 'policy', type: 'strings', description: '', default: ['default'] }];
    ((await parseArgs([], flags)).flags.policy as string[]).push('mutated');
    expect((await parseArgs([], flags)).flags.policy).toEqual(['default']);
  });

  it('parses and validates int flags', async () => {
    expect((await parseArgs(['-count=3'], FLAGS)).flags.count).toBe(3);
    expect((await parseArgs(['-count', '-2'], FLAGS)).flags.count).toBe(-2);
    expect(await usageError(parseArgs(['-count=abc'], FLAGS))).toMatch(/^invalid value "abc" for -count: /);
    expect(await usageError(parseArgs(['-count=1.5'], FLAGS))).toMatch(/^invalid value "1.5" for -count: /);
    expect(await usageError(parseArgs(['-count=99999999999999999999'], FLAGS))).toMatch(/for -count: out of range/);
  });

  it('keeps durations as typed but validates them', async () => {
    for (const d of ['3600', '72h', '30m', '1h30m', '10s', '500ms', '0']) {
      expect((await parseArgs([`-ttl=${d}`], FLAGS)).flags.ttl).toBe(d);
    }
    expect(await usageError(parseArgs(['-ttl=abc'], FLAGS))).toMatch(/^invalid value "abc" for -ttl: not a duration/);
    expect(await usageError(parseArgs(['-ttl=10x'], FLAGS))).toMatch(/^invalid value "10x" for -ttl: /);
    expect(await usageError(parseArgs(['-ttl=-5s'], FLAGS))).toMatch(/^invalid value "-5s" for -ttl: .*negative/);
  });

  it('enforces choices', async () => {
    expect((await parseArgs(['-format=json'], FLAGS)).flags.format).toBe('json');
    expect(await usageError(parseArgs(['-format=x'], FLAGS))).toBe('invalid value "x" for -format: must be one of table, json, yaml');
  });

  it('enforces choices on every element of a strings flag', async () => {
    const flags: FlagSpec[] = [{ name: 'type', type: 'strings', description: '', choices: ['a', 'b'] }];
    expect((await parseArgs(['-type=a', '-type=b'], flags)).flags.type).toEqual(['a', 'b']);
    expect(await usageError(parseArgs(['-type=a', '-type=c'], flags))).toBe('invalid value "c" for -type: must be one of a, b');
  });
});

describe('parseArgs: aliases and combined letters', () => {
  it('resolves aliases to the canonical name', async () => {
    const parsed = await parseArgs(['-t'], FLAGS);
    expect(parsed.flags.tty).toBe(true);
    expect(parsed.flags.t).toBeUndefined();
    expect((await parseArgs(['-t=false'], FLAGS)).flags.tty).toBe(false);
  });

  it('names the flag as typed in errors', async () => {
    expect(await usageError(parseArgs(['-t=maybe'], FLAGS))).toBe('invalid boolean value "maybe" for -t');
  });

  it('expands -it into -i -t when every letter is a one-letter bool', async () => {
    const parsed = await parseArgs(['-it', 'abc'], FLAGS);
    expect(parsed.flags).toMatchObject({ i: true, tty: true });
    expect(parsed.args).toEqual(['abc']);
    expect((await parseArgs(['-ti'], FLAGS)).flags).toMatchObject({ i: true, tty: true });
  });

  it('does not expand when a letter is not a one-letter bool', async () => {
    const flags: FlagSpec[] = [...FLAGS, { name: 'n', type: 'string', description: '' }];
    expect(await usageError(parseArgs(['-itx'], FLAGS))).toBe('flag provided but not defined: -itx');
    // -i and -n are one edit away: the suggestion follows the error.
    expect(await usageError(parseArgs(['-in'], flags))).toBe('flag provided but not defined: -in\nDid you mean one of these?\n    -i\n    -n');
  });

  it('prefers a defined flag named like the combination', async () => {
    const flags: FlagSpec[] = [...FLAGS, { name: 'it', type: 'string', description: '' }];
    const parsed = await parseArgs(['-it', 'value'], flags);
    expect(parsed.flags.it).toBe('value');
    expect(parsed.flags.i).toBeUndefined();
  });

  it('does not expand the double-dash or = forms', async () => {
    const notDefined = 'flag provided but not defined: -it\nDid you mean one of these?\n    -i\n    -t';
    expect(await usageError(parseArgs(['--it'], FLAGS))).toBe(notDefined);
    expect(await usageError(parseArgs(['-it=true'], FLAGS))).toBe(notDefined);
  });

  it('lets a later spec with the same name win', async () => {
    const flags: FlagSpec[] = [...FLAGS, { name: 'address', type: 'int', description: '' }];
    expect((await parseArgs(['-address=7'], flags)).flags.address).toBe(7);
  });
});

describe('parseArgs: positional arguments', () => {
  it('ends flag parsing at --, which is dropped', async () => {
    const parsed = await parseArgs(['-detach', '--', '-format=x', '-foo'], FLAGS);
    expect(parsed.flags.detach).toBe(true);
    expect(parsed.flags.format).toBe('table');
    expect(parsed.args).toEqual(['-format=x', '-foo']);
  });

  it('treats a lone - as positional', async () => {
    expect((await parseArgs(['-detach', '-'], FLAGS)).args).toEqual(['-']);
  });

  it('still parses defined flags after a positional (flags after the path)', async () => {
    const parsed = await parseArgs(['secret/x', 'k=v', '-format=json', '-policy', 'p'], FLAGS);
    expect(parsed.args).toEqual(['secret/x', 'k=v']);
    expect(parsed.flags.format).toBe('json');
    expect(parsed.flags.policy).toEqual(['p']);
  });

  it('keeps undefined dash words after a positional as positionals', async () => {
    const parsed = await parseArgs(['path', '-foo', '-detach', '---x'], FLAGS);
    expect(parsed.args).toEqual(['path', '-foo', '---x']);
    expect(parsed.flags.detach).toBe(true);
  });

  it('honours -- after a positional', async () => {
    const parsed = await parseArgs(['path', '--', '-detach'], FLAGS);
    expect(parsed.args).toEqual(['path', '-detach']);
    expect(parsed.flags.detach).toBeUndefined();
  });

  it('validates flags after a positional like any other', async () => {
    expect(await usageError(parseArgs(['path', '-format=x'], FLAGS))).toMatch(/must be one of/);
  });

  it('with stopAtFirstArg leaves everything from the first positional untouched', async () => {
    const parsed = await parseArgs(['-t', '-task', 'web', 'ID', '/bin/sh', '-c', 'x', '-detach', '--', '-it'], FLAGS, { stopAtFirstArg: true });
    expect(parsed.flags).toMatchObject({ tty: true, task: 'web' });
    expect(parsed.flags.detach).toBeUndefined();
    expect(parsed.args).toEqual(['ID', '/bin/sh', '-c', 'x', '-detach', '--', '-it']);
  });

  it('with stopAtFirstArg still drops a -- before the first positional', async () => {
    expect((await parseArgs(['-t', '--', '-x'], FLAGS, { stopAtFirstArg: true })).args).toEqual(['-x']);
  });
});

describe('parseArgs: environment and defaults', () => {
  it('uses the default when neither flag nor env is given', async () => {
    expect((await parseArgs([], FLAGS)).flags.address).toBe('http://127.0.0.1:4646');
  });

  it('uses the env var over the default', async () => {
    expect((await parseArgs([], FLAGS, { env: { SVC_ADDR: 'http://env:1' } })).flags.address).toBe('http://env:1');
  });

  it('uses the flag over the env var', async () => {
    expect((await parseArgs(['-address=http://flag:1'], FLAGS, { env: { SVC_ADDR: 'http://env:1' } })).flags.address).toBe('http://flag:1');
  });

  it('ignores an empty env var', async () => {
    expect((await parseArgs([], FLAGS, { env: { SVC_ADDR: '' } })).flags.address).toBe('http://127.0.0.1:4646');
  });

  it('reads no environment unless one is passed', async () => {
    process.env.SVC_ADDR_TEST_UNUSED = 'x';
    const flags: FlagSpec[] = [{ name: 'a', type: 'string', description: '', env: 'SVC_ADDR_TEST_UNUSED' }];
    expect((await parseArgs([], flags)).flags.a).toBeUndefined();
    delete process.env.SVC_ADDR_TEST_UNUSED;
  });

  it('validates and converts env values by type', async () => {
    const flags: FlagSpec[] = [
      { name: 'yes', type: 'bool', description: '', env: 'SVC_YES' },
      { name: 'n', type: 'int', description: '', env: 'SVC_N' },
      { name: 'p', type: 'strings', description: '', env: 'SVC_P' },
    ];
    expect((await parseArgs([], flags, { env: { SVC_YES: 'true', SVC_N: '4', SVC_P: 'a, b,,c' } })).flags).toEqual({ yes: true, n: 4, p: ['a', 'b', 'c'] });
    expect(await usageError(parseArgs([], flags, { env: { SVC_YES: 'x' } }))).toBe('invalid boolean value "x" for -yes (from SVC_YES)');
    expect(await usageError(parseArgs([], FLAGS, { env: { SVC_FORMAT: 'xml' } }))).toBe(
      'invalid value "xml" for -format (from SVC_FORMAT): must be one of table, json, yaml',
    );
  });

  it('does not read the env var of a flag that was given', async () => {
    expect((await parseArgs(['-format=json'], FLAGS, { env: { SVC_FORMAT: 'xml' } })).flags.format).toBe('json');
  });
});

describe('helpRequested', () => {
  it('finds -h, -help and --help', async () => {
    expect(helpRequested(['-h'])).toBe(true);
    expect(helpRequested(['path', '-help'])).toBe(true);
    expect(helpRequested(['-detach', '--help'])).toBe(true);
    expect(helpRequested(['-detach', 'path'])).toBe(false);
    expect(helpRequested(['-helpful'])).toBe(false);
  });

  it('ignores help flags after --', async () => {
    expect(helpRequested(['--', '-h'])).toBe(false);
    expect(helpRequested(['-h', '--'])).toBe(true);
  });

  it('with the flags, skips a value that looks like -h', async () => {
    expect(helpRequested(['-task', '-h'], { flags: FLAGS })).toBe(false);
    expect(helpRequested(['-task=x', '-h'], { flags: FLAGS })).toBe(true);
    expect(helpRequested(['-detach', '-h'], { flags: FLAGS })).toBe(true);
  });

  it('with stopAtFirstArg, leaves a remote command its -h', async () => {
    expect(helpRequested(['ID', 'ls', '-h'], { flags: FLAGS, stopAtFirstArg: true })).toBe(false);
    expect(helpRequested(['-t', '-h', 'ID'], { flags: FLAGS, stopAtFirstArg: true })).toBe(true);
    expect(helpRequested(['ID', 'ls', '-h'], { flags: FLAGS })).toBe(true);
  });
});
