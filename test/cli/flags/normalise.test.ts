/**
 * HashiCorp flag syntax → commander's, with the real commands' declarations: each convention Vault and
 * Nomad users rely on, as the normaliser hands it to commander (flags in `--name` form, in argv order,
 * under the name typed) and the positional arguments it leaves.
 */
import { describe, expect, it } from 'vitest';
import { fullRegistry } from '../../../src/cli/registry.js';
import { findCommand, flagsOf } from '../../../src/main.js';
import { indexFlags, normalise } from '../../../src/cli/flags/normalise.js';
import type { FlagSpec } from '../../../src/cli/define.js';
import { UsageError } from '../../../src/shared/errors.js';

const { commands } = await fullRegistry();

function spec(words: string) {
  const found = findCommand(words.split(' '), commands);
  if (found.spec?.path.join(' ') !== words) throw new Error(`no command "svc ${words}"`);
  return found.spec;
}

/** What `svc <words> <argv...>` hands commander, and its positional arguments. */
function of(words: string, argv: string[]) {
  const cmd = spec(words);
  return normalise(argv, indexFlags(flagsOf(cmd)), { stopAtFirstArg: cmd.stopAtFirstArg });
}

describe('normalise: flag forms', () => {
  it('reads -name and --name as the same flag, its value after = or in the next argument', () => {
    expect(of('status', ['-address=http://a:1'])).toEqual({ options: ['--address=http://a:1'], args: [] });
    expect(of('status', ['--address=http://a:1'])).toEqual({ options: ['--address=http://a:1'], args: [] });
    expect(of('status', ['-address', 'http://a:1'])).toEqual({ options: ['--address', 'http://a:1'], args: [] });
    expect(of('status', ['--address', 'http://a:1'])).toEqual({ options: ['--address', 'http://a:1'], args: [] });
  });

  it('keeps everything after the first = as the value, an empty one included', () => {
    expect(of('job run', ['-var=a=b', '-check-index=', 'x.hcl']).options).toEqual(['--var=a=b', '--check-index=']);
  });

  it('a bool flag never takes the next argument; its value comes after =', () => {
    expect(of('job run', ['-detach', 'false'])).toEqual({ options: ['--detach'], args: ['false'] });
    expect(of('job run', ['-detach=false', 'x.hcl'])).toEqual({ options: ['--detach=false'], args: ['x.hcl'] });
  });

  it('any other flag takes the next argument whatever it looks like, as Go does', () => {
    expect(of('status', ['-address', '-x'])).toEqual({ options: ['--address', '-x'], args: [] });
    expect(of('job run', ['-check-index', '--', 'x.hcl'])).toEqual({ options: ['--check-index', '--'], args: ['x.hcl'] });
    expect(of('job run', ['-check-index', '-detach', 'x.hcl'])).toEqual({ options: ['--check-index', '-detach'], args: ['x.hcl'] });
  });

  it('leaves a value flag at the end without one, for commander to report', () => {
    expect(of('job run', ['x.hcl', '-check-index'])).toEqual({ options: ['--check-index'], args: ['x.hcl'] });
  });

  it('passes aliases under the name typed, so errors name the flag as the user wrote it', () => {
    expect(of('write', ['-f', 'secret/x', 'a=1'])).toEqual({ options: ['--f'], args: ['secret/x', 'a=1'] });
    expect(of('alloc fs', ['-H', 'abc']).options).toEqual(['--H']);
  });
});

describe('normalise: combined one-letter bools', () => {
  it('splits -it into -i -t when every letter is a one-letter bool', () => {
    expect(of('alloc exec', ['-it', 'ID', 'sh'])).toEqual({ options: ['--i', '--t'], args: ['ID', 'sh'] });
    expect(of('alloc exec', ['-ti', 'ID', 'sh']).options).toEqual(['--t', '--i']);
  });

  it('does not split when a letter is not a one-letter bool (alloc exec -e takes a value)', () => {
    expect(of('alloc exec', ['-ie', 'ID', 'sh'])).toEqual({ options: ['--ie'], args: [] });
  });

  it('does not split the double-dash or = forms', () => {
    expect(of('alloc exec', ['--it', 'ID', 'sh']).options).toEqual(['--it']);
    expect(of('alloc exec', ['-it=true', 'ID', 'sh']).options).toEqual(['--it']);
  });

  it('prefers a flag named like the combination', () => {
    const flags: FlagSpec[] = [
      { name: 'i', type: 'bool', description: '' },
      { name: 't', type: 'bool', description: '' },
      { name: 'it', type: 'string', description: '' },
    ];
    expect(normalise(['-it', 'v'], indexFlags(flags))).toEqual({ options: ['--it', 'v'], args: [] });
  });
});

describe('normalise: positional arguments', () => {
  it('ends flags at --, which is dropped', () => {
    expect(of('job run', ['-detach', '--', '-x.hcl'])).toEqual({ options: ['--detach'], args: ['-x.hcl'] });
    expect(of('read', ['secret/x', '--', '-format=json'])).toEqual({ options: [], args: ['secret/x', '-format=json'] });
  });

  it('reads a lone - as a positional argument (stdin)', () => {
    expect(of('job run', ['-detach', '-'])).toEqual({ options: ['--detach'], args: ['-'] });
  });

  it('still reads a defined flag after the path, as Vault users write it', () => {
    expect(of('read', ['secret/x', 'k=v', '-format=json', '-field', 'k'])).toEqual({ options: ['--format=json', '--field', 'k'], args: ['secret/x', 'k=v'] });
    expect(of('alloc exec', ['ID', 'sh']).args).toEqual(['ID', 'sh']);
  });

  it('keeps any other dash word after the path positional', () => {
    expect(of('read', ['secret/x', '-foo', '---x', '-format=json'])).toEqual({ options: ['--format=json'], args: ['secret/x', '-foo', '---x'] });
  });

  it('with stopAtFirstArg (alloc exec), leaves everything from the first positional untouched', () => {
    expect(of('alloc exec', ['-t', '-task', 'web', 'ID', '/bin/sh', '-c', 'x', '-t', '--', '-it'])).toEqual({
      options: ['--t', '--task', 'web'],
      args: ['ID', '/bin/sh', '-c', 'x', '-t', '--', '-it'],
    });
    expect(of('alloc exec', ['-t', '--', '-x'])).toEqual({ options: ['--t'], args: ['-x'] });
  });
});

describe('normalise: mistakes', () => {
  it('stops at the first undefined flag, as Go does, leaving it for commander to report', () => {
    expect(of('job run', ['-detach', '-detatch=1', '-verbose', 'x.hcl'])).toEqual({ options: ['--detach', '--detatch'], args: [] });
  });

  it('rejects bad flag syntax before the first positional', () => {
    for (const bad of ['---detach', '-=x', '--=x']) {
      expect(() => of('job run', [bad, 'x.hcl'])).toThrow(UsageError);
      expect(() => of('job run', [bad, 'x.hcl'])).toThrow(`bad flag syntax: ${bad}`);
    }
  });

  it('lets a later declaration of a name win (a command flag over a common one)', () => {
    const flags: FlagSpec[] = [
      { name: 'address', type: 'string', description: '' },
      { name: 'address', type: 'bool', description: '' },
    ];
    expect(normalise(['-address', 'x'], indexFlags(flags))).toEqual({ options: ['--address'], args: ['x'] });
  });
});
