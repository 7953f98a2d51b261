/**
 * Flags → values through commander, with the real commands' declarations: types, aliases, repeatable
 * flags, flag > environment > default, and commander's errors in Go's words with the closest flags.
 */
import { describe, expect, it } from 'vitest';
import { fullRegistry } from '../../../src/cli/registry.js';
import { findCommand, flagsOf } from '../../../src/main.js';
import { parseArgs, type ParseArgsOptions } from '../../../src/cli/argv.js';
import { parseFlags } from '../../../src/cli/flags/parse.js';
import { indexFlags } from '../../../src/cli/flags/normalise.js';
import type { FlagSpec } from '../../../src/cli/define.js';
import { UsageError } from '../../../src/shared/errors.js';

const { commands } = await fullRegistry();

/** `svc <words> <argv...>` parsed as the CLI parses it. */
function parse(words: string, argv: string[], opts: Omit<ParseArgsOptions, 'stopAtFirstArg'> = {}) {
  const found = findCommand(words.split(' '), commands);
  if (found.spec?.path.join(' ') !== words) throw new Error(`no command "svc ${words}"`);
  return parseArgs(argv, flagsOf(found.spec), { ...opts, stopAtFirstArg: found.spec.stopAtFirstArg });
}

const flags = async (words: string, argv: string[], opts?: Omit<ParseArgsOptions, 'stopAtFirstArg'>) => (await parse(words, argv, opts)).flags;

async function usageError(parsing: Promise<unknown>): Promise<string> {
  const err = await parsing.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(UsageError);
  return (err as Error).message;
}

describe('parse: values by type', () => {
  it('sets a bool from -name, -name=true and -name=false, in Go ParseBool words', async () => {
    expect((await flags('job run', ['-detach', 'x.hcl'])).detach).toBe(true);
    expect((await flags('job run', ['-detach=false', 'x.hcl'])).detach).toBe(false);
    expect((await flags('job run', ['--detach=F', 'x.hcl'])).detach).toBe(false);
    expect((await flags('job run', ['-detach=1', 'x.hcl'])).detach).toBe(true);
    expect(await usageError(parse('job run', ['-detach=yes', 'x.hcl']))).toBe('invalid boolean value "yes" for -detach');
  });

  it('gives -no-color its own value: it is not commander\'s negation of a -color', async () => {
    expect((await flags('status', ['-no-color']))['no-color']).toBe(true);
    expect((await flags('status', ['-no-color=false']))['no-color']).toBe(false);
    const unset = await flags('status', []);
    expect('no-color' in unset || 'color' in unset).toBe(false);
  });

  it('leaves unset bool and value flags without default absent, so "not given" differs from false', async () => {
    const parsed = await flags('job run', ['x.hcl']);
    expect('detach' in parsed).toBe(false);
    expect('check-index' in parsed).toBe(false);
    expect(parsed['hcl2-strict']).toBe(true);
  });

  it('reads ints as numbers, and checks them', async () => {
    expect((await flags('alloc logs', ['-n', '5', 'ID'])).n).toBe(5);
    expect((await flags('alloc logs', ['-n', '-2', 'ID'])).n).toBe(-2);
    expect(await usageError(parse('alloc logs', ['-n', 'abc', 'ID']))).toBe('invalid value "abc" for -n: not an integer');
    expect(await usageError(parse('alloc logs', ['-n=99999999999999999999', 'ID']))).toBe('invalid value "99999999999999999999" for -n: out of range');
  });

  it('keeps durations as typed, once checked', async () => {
    expect((await flags('token create', ['-ttl=1h30m'])).ttl).toBe('1h30m');
    expect((await flags('token create', ['-ttl', '3600'])).ttl).toBe('3600');
    expect(await usageError(parse('token create', ['-ttl=10x']))).toMatch(/^invalid value "10x" for -ttl: not a duration/);
    expect(await usageError(parse('token create', ['-ttl=-5s']))).toBe('invalid value "-5s" for -ttl: a duration may not be negative');
  });

  it('enforces choices, after the path too', async () => {
    expect((await flags('read', ['secret/x', '-format=yaml'])).format).toBe('yaml');
    expect(await usageError(parse('read', ['secret/x', '-format=xml']))).toBe('invalid value "xml" for -format: must be one of table, json, yaml');
  });

  it('takes the next argument as a value whatever it looks like', async () => {
    expect((await flags('status', ['-namespace', '-x'])).namespace).toBe('-x');
    expect((await flags('alloc exec', ['-task', '-h', 'ID', 'sh'])).task).toBe('-h');
  });

  it('keeps the last value of a repeated single-valued flag', async () => {
    expect((await flags('status', ['-address=http://a:1', '-address', 'http://b:2'])).address).toBe('http://b:2');
  });

  it('collects every occurrence of a strings flag, in order, and gives an unset one []', async () => {
    expect((await flags('job run', ['-var', 'a=1', '--var=b=2', 'x.hcl', '-var', 'c=3'])).var).toEqual(['a=1', 'b=2', 'c=3']);
    expect((await flags('job run', ['x.hcl'])).var).toEqual([]);
  });
});

describe('parse: aliases and combined letters', () => {
  it('stores an alias under the flag name; the last occurrence wins whichever name it used', async () => {
    expect(await flags('write', ['-f', 'secret/x'])).toMatchObject({ force: true });
    expect('f' in (await flags('write', ['-f', 'secret/x']))).toBe(false);
    expect((await flags('write', ['-force=false', '-f', 'secret/x'])).force).toBe(true);
    expect((await flags('write', ['-f', '-force=false', 'secret/x'])).force).toBe(false);
  });

  it('collects a strings flag given under its name and its alias into one list', async () => {
    expect((await flags('auth cloud role write', ['-policy', 'a', '-token-policies=b', '-policy=c', 'r']))['token-policies']).toEqual(['a', 'b', 'c']);
  });

  it('names the flag as typed in errors', async () => {
    expect(await usageError(parse('write', ['-f=maybe', 'secret/x']))).toBe('invalid boolean value "maybe" for -f');
  });

  it('sets each letter of -it', async () => {
    expect(await flags('alloc exec', ['-it', 'ID', 'sh'])).toMatchObject({ i: true, t: true });
    expect(await flags('alloc exec', ['-i=false', 'ID', 'sh'])).toMatchObject({ i: false });
  });
});

describe('parse: flag > environment > default', () => {
  const env = { SVC_ADDR: 'http://env:1', SVC_FORMAT: 'json' };

  it('uses the flag over the environment, and the environment over the default', async () => {
    expect((await flags('status', [])).address).toBe('http://127.0.0.1:4646');
    expect((await flags('status', [], { env })).address).toBe('http://env:1');
    expect((await flags('status', ['-address=http://flag:1'], { env })).address).toBe('http://flag:1');
    expect((await flags('read', ['secret/x'], { env })).format).toBe('json');
  });

  it('ignores an empty variable, and reads none unless given an environment', async () => {
    expect((await flags('status', [], { env: { SVC_ADDR: '' } })).address).toBe('http://127.0.0.1:4646');
    process.env.SVC_ADDR = 'http://process-env:1';
    try {
      expect((await flags('status', [])).address).toBe('http://127.0.0.1:4646');
    } finally {
      delete process.env.SVC_ADDR;
    }
  });

  it("reads a bool variable's value in Go's words (commander's .env() would take any value for true)", async () => {
    expect((await flags('status', [], { env: { SVC_SKIP_VERIFY: 'false' } }))['tls-skip-verify']).toBe(false);
    expect((await flags('status', [], { env: { SVC_SKIP_VERIFY: '1' } }))['tls-skip-verify']).toBe(true);
    expect(await usageError(parse('status', [], { env: { SVC_SKIP_VERIFY: 'yes' } }))).toBe('invalid boolean value "yes" for -tls-skip-verify (from SVC_SKIP_VERIFY)');
  });

  it('checks a variable like a flag value, and only for a flag not given', async () => {
    expect(await usageError(parse('read', ['secret/x'], { env: { SVC_FORMAT: 'xml' } }))).toBe('invalid value "xml" for -format (from SVC_FORMAT): must be one of table, json, yaml');
    expect((await flags('read', ['secret/x', '-format=yaml'], { env: { SVC_FORMAT: 'xml' } })).format).toBe('yaml');
  });

  it('gives a flag set under an alias precedence over the environment', async () => {
    const declared: FlagSpec[] = [{ name: 'policy', aliases: ['p'], type: 'strings', env: 'SVC_P', description: '' }];
    expect((await parseArgs(['-p', 'a'], declared, { env: { SVC_P: 'x,y' } })).flags.policy).toEqual(['a']);
    expect((await parseArgs([], declared, { env: { SVC_P: 'x, y,,z' } })).flags.policy).toEqual(['x', 'y', 'z']);
  });
});

describe('parse: mistakes, in Go words', () => {
  it('an undefined flag, with the closest flags of the command', async () => {
    expect(await usageError(parse('job run', ['-detatch', 'x.hcl']))).toBe('flag provided but not defined: -detatch\nDid you mean -detach?');
    expect(await usageError(parse('status', ['--adress=http://a:1']))).toBe('flag provided but not defined: -adress\nDid you mean -address?');
    expect(await usageError(parse('job run', ['-stat', 'x.hcl']))).toBe('flag provided but not defined: -stat');
  });

  it('several close flags are listed, closest first', async () => {
    expect(await usageError(parse('alloc logs', ['-std', 'ID']))).toBe('flag provided but not defined: -std\nDid you mean one of these?\n    -stderr\n    -stdout');
  });

  it('no suggestion for a one-letter flag, nor a hidden one', async () => {
    expect(await usageError(parse('alloc exec', ['-x', 'ID', 'sh']))).toBe('flag provided but not defined: -x');
    const declared: FlagSpec[] = [
      { name: 'detach', type: 'bool', description: '' },
      { name: 'debug-internals', type: 'bool', description: '', hidden: true },
    ];
    expect(() => parseFlags(['--detatch'], indexFlags(declared))).toThrow('flag provided but not defined: -detatch\nDid you mean -detach?');
    expect(() => parseFlags(['--debug-internal'], indexFlags(declared))).toThrow(/^flag provided but not defined: -debug-internal$/);
  });

  it('a value flag with nothing after it', async () => {
    expect(await usageError(parse('job run', ['x.hcl', '-check-index']))).toBe('flag needs an argument: -check-index');
    expect(await usageError(parse('alloc exec', ['-task']))).toBe('flag needs an argument: -task');
  });

  it('reports the first mistake in argv order', async () => {
    expect(await usageError(parse('job run', ['-eval-priority=x', '-detatch', 'x.hcl']))).toBe('invalid value "x" for -eval-priority: not an integer');
    expect(await usageError(parse('job run', ['-detatch', '-eval-priority=x', 'x.hcl']))).toMatch(/^flag provided but not defined: -detatch\n/);
  });
});
