/**
 * HashiCorp flag syntax → what commander parses. Vault and Nomad read flags with Go's `flag` package, and
 * their users and scripts rely on its conventions, which commander (POSIX: `-abc` is three short options,
 * `--flag=value` only for options that take a value) does not share:
 *
 * - `-name` and `--name` are the same flag; values as `-name=value` or `-name value`.
 * - A bool flag is `-detach`, `-detach=true` or `-detach=false`; it never consumes the next argument.
 *   Accepted values are Go's strconv.ParseBool ones: 1 t T TRUE true True 0 f F FALSE false False.
 * - Any other flag takes the next argument as its value whatever it looks like (`-address -x` sets the
 *   address to "-x"), as Go does; with no next argument it is "flag needs an argument".
 * - One-letter bool flags/aliases may be combined, `-it` = `-i -t`, when every letter is one and `-it`
 *   itself is not a defined flag (single dash only; `-it=x` is never split).
 * - `--` ends flag parsing and is dropped; everything after it is positional. A lone `-` is positional
 *   (conventionally stdin).
 * - Flags stop at the first positional argument, as in Go. As a convenience, because Vault users
 *   commonly write flags after the path (`svc read secret/x -format=json`), a later argument that names a
 *   defined flag (or a combination of one-letter bools) is still parsed as a flag; any other later
 *   argument, including `-undefined`, stays positional. With `stopAtFirstArg` (exec-like commands) this
 *   convenience is off: everything from the first positional on is left untouched, so
 *   `svc alloc exec -t ID /bin/sh -c x` hands `/bin/sh -c x` to the remote command.
 * - When two specs share a name or alias, the later one wins (a command's own flag overrides a common one).
 *
 * So the split between flags and positional arguments is made here, and commander is handed the flags
 * alone, each as `--name`, `--name=value` or `--name value` under the name the user typed (so its errors
 * name the flag as typed). Parsing stops at the first undefined flag, as Go's does: commander reports it.
 *
 * Only dependency-free project modules are imported: every command's start runs this (src/cli/argv.ts).
 */
import type { FlagSpec } from '../define.js';
import { UsageError } from '../../shared/errors.js';

export interface NormaliseOptions {
  /** everything from the first positional argument on is positional (exec-like commands) */
  stopAtFirstArg?: boolean;
}

export interface Normalised {
  /** the flags, in argv order, in commander's long form */
  options: string[];
  /** the positional arguments, in order */
  args: string[];
}

/** Every name and alias → its spec; a later spec wins a name. */
export function indexFlags(flags: FlagSpec[]): Map<string, FlagSpec> {
  const byName = new Map<string, FlagSpec>();
  for (const spec of flags) {
    byName.set(spec.name, spec);
    for (const alias of spec.aliases ?? []) byName.set(alias, spec);
  }
  return byName;
}

export type ArgKind =
  | { kind: 'positional' }
  | { kind: 'end' }
  | { kind: 'flag'; spec: FlagSpec; typed: string; value?: string }
  | { kind: 'combined'; letters: string[] }
  | { kind: 'unknown'; typed: string }
  | { kind: 'bad' };

/** What one argument is, read as a flag. */
export function classify(arg: string, byName: ReadonlyMap<string, FlagSpec>): ArgKind {
  if (arg === '--') return { kind: 'end' };
  if (arg === '-' || !arg.startsWith('-')) return { kind: 'positional' };
  const dashes = arg.startsWith('--') ? 2 : 1;
  const body = arg.slice(dashes);
  if (body === '' || body.startsWith('-') || body.startsWith('=')) return { kind: 'bad' };
  const eq = body.indexOf('=');
  const name = eq === -1 ? body : body.slice(0, eq);
  const spec = byName.get(name);
  if (spec) return { kind: 'flag', spec, typed: name, value: eq === -1 ? undefined : body.slice(eq + 1) };
  if (dashes === 1 && eq === -1 && name.length > 1 && [...name].every((letter) => byName.get(letter)?.type === 'bool')) {
    return { kind: 'combined', letters: [...name] };
  }
  return { kind: 'unknown', typed: name };
}

export function normalise(argv: string[], byName: ReadonlyMap<string, FlagSpec>, opts: NormaliseOptions = {}): Normalised {
  const options: string[] = [];
  const args: string[] = [];
  let afterPositional = false;

  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const token = classify(arg, byName);
    if (token.kind === 'end') {
      args.push(...argv.slice(i + 1));
      break;
    }
    if (token.kind === 'positional') {
      if (opts.stopAtFirstArg) {
        args.push(...argv.slice(i));
        break;
      }
      args.push(arg);
      afterPositional = true;
      continue;
    }
    if ((token.kind === 'bad' || token.kind === 'unknown') && afterPositional) {
      args.push(arg);
      continue;
    }
    if (token.kind === 'bad') throw new UsageError(`bad flag syntax: ${arg}`);
    if (token.kind === 'unknown') {
      options.push(`--${token.typed}`);
      break;
    }
    if (token.kind === 'combined') {
      options.push(...token.letters.map((letter) => `--${letter}`));
      continue;
    }
    const { spec, typed, value } = token;
    if (value !== undefined) options.push(`--${typed}=${value}`);
    // The next argument is the value whatever it looks like; commander takes it the same way.
    else if (spec.type !== 'bool' && i + 1 < argv.length) options.push(`--${typed}`, argv[++i]);
    else options.push(`--${typed}`);
  }
  return { options, args };
}
