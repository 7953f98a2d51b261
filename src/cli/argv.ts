/**
 * argv → flag values and positional arguments, with the flag syntax HashiCorp users type (Go's `flag`
 * package, as Vault and Nomad use it):
 *
 * - `-name` and `--name` are the same flag; values as `-name=value` or `-name value`.
 * - A bool flag is `-detach`, `-detach=true` or `-detach=false`; it never consumes the next argument.
 *   Accepted values are Go's strconv.ParseBool ones: 1 t T TRUE true True 0 f F FALSE false False.
 * - Any other flag takes the next argument as its value whatever it looks like (`-address -x` sets the
 *   address to "-x"), as Go does; with no next argument it is "flag needs an argument".
 * - `strings` flags collect every occurrence, in order; a repeated single-valued flag keeps the last one.
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
 * - Precedence: flag > environment variable (`env`, ignored when empty) > `default`. Environment values
 *   are validated like flag values; a `strings` flag's environment value is split on commas. Unset bool
 *   and single-valued flags without env or default are absent (undefined), so a command can tell "not
 *   given" from "false"; unset `strings` flags are `[]`.
 * - When two specs share a name or alias, the later one wins (a command's own flag overrides a common one).
 *
 * Only node built-ins and dependency-free project modules are imported: this is on the start-up path.
 */
import type { FlagSpec, FlagValues } from './define.js';
import { UsageError } from '../shared/errors.js';
import { parseDurationSeconds } from '../shared/duration.js';
import { parseGoBool } from '../shared/go-bool.js';

export interface ParseArgsOptions {
  /** everything from the first positional argument on is positional (exec-like commands) */
  stopAtFirstArg?: boolean;
  /** where `FlagSpec.env` variables are read from; no environment is read when absent */
  env?: Record<string, string | undefined>;
}

export interface ParsedArgs {
  flags: FlagValues;
  args: string[];
}


type Token =
  | { kind: 'positional' }
  | { kind: 'end' }
  | { kind: 'flag'; spec: FlagSpec; typed: string; value?: string }
  | { kind: 'combined'; specs: FlagSpec[] }
  | { kind: 'unknown'; typed: string }
  | { kind: 'bad' };

function indexFlags(flags: FlagSpec[]): Map<string, FlagSpec> {
  const byName = new Map<string, FlagSpec>();
  for (const spec of flags) {
    byName.set(spec.name, spec);
    for (const alias of spec.aliases ?? []) byName.set(alias, spec);
  }
  return byName;
}

function classify(arg: string, byName: Map<string, FlagSpec>): Token {
  if (arg === '--') return { kind: 'end' };
  if (arg === '-' || !arg.startsWith('-')) return { kind: 'positional' };
  const dashes = arg.startsWith('--') ? 2 : 1;
  const body = arg.slice(dashes);
  if (body === '' || body.startsWith('-') || body.startsWith('=')) return { kind: 'bad' };
  const eq = body.indexOf('=');
  const name = eq === -1 ? body : body.slice(0, eq);
  const spec = byName.get(name);
  if (spec) return { kind: 'flag', spec, typed: name, value: eq === -1 ? undefined : body.slice(eq + 1) };
  if (dashes === 1 && eq === -1 && name.length > 1) {
    const specs = [...name].map((letter) => byName.get(letter));
    if (specs.every((s) => s?.type === 'bool')) return { kind: 'combined', specs: specs as FlagSpec[] };
  }
  return { kind: 'unknown', typed: name };
}

/** Validates and converts one textual value; `where` names the source in error messages. */
function convert(spec: FlagSpec, text: string, where: string): string | number {
  const invalid = (why: string) => new UsageError(`invalid value "${text}" for ${where}: ${why}`);
  let value: string | number = text;
  if (spec.type === 'int') {
    if (!/^[+-]?\d+$/.test(text.trim())) throw invalid('not an integer');
    value = Number(text.trim());
    if (!Number.isSafeInteger(value)) throw invalid('out of range');
  } else if (spec.type === 'duration') {
    const seconds = parseDurationSeconds(text);
    if (seconds === undefined) throw invalid('not a duration (give seconds, or a duration such as 30s, 10m, 1h30m, 72h)');
    if (seconds < 0) throw invalid('a duration may not be negative');
  }
  if (spec.choices && !spec.choices.includes(text)) throw invalid(`must be one of ${spec.choices.join(', ')}`);
  return value;
}

function convertBool(text: string, where: string): boolean {
  const value = parseGoBool(text);
  if (value === undefined) throw new UsageError(`invalid boolean value "${text}" for ${where}`);
  return value;
}

export function parseArgs(argv: string[], flags: FlagSpec[], opts: ParseArgsOptions = {}): ParsedArgs {
  const byName = indexFlags(flags);
  const values: FlagValues = {};
  const collected = new Map<string, string[]>();
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
    if (token.kind === 'bad' || token.kind === 'unknown') {
      if (afterPositional) {
        args.push(arg);
        continue;
      }
      throw new UsageError(token.kind === 'bad' ? `bad flag syntax: ${arg}` : `flag provided but not defined: -${token.typed}`);
    }
    if (token.kind === 'combined') {
      for (const spec of token.specs) values[spec.name] = true;
      continue;
    }
    const { spec, typed } = token;
    const where = `-${typed}`;
    if (spec.type === 'bool') {
      values[spec.name] = token.value === undefined ? true : convertBool(token.value, where);
      continue;
    }
    let text = token.value;
    if (text === undefined) {
      if (i + 1 >= argv.length) throw new UsageError(`flag needs an argument: ${where}`);
      text = argv[++i];
    }
    const value = convert(spec, text, where);
    if (spec.type === 'strings') {
      const list = collected.get(spec.name) ?? [];
      list.push(text);
      collected.set(spec.name, list);
    } else {
      values[spec.name] = value;
    }
  }

  for (const [name, list] of collected) values[name] = list;
  const env = opts.env;
  for (const spec of new Set(byName.values())) {
    if (values[spec.name] !== undefined) continue;
    const fromEnv = spec.env !== undefined && env ? env[spec.env] : undefined;
    if (fromEnv !== undefined && fromEnv !== '') {
      const where = `-${spec.name} (from ${spec.env})`;
      if (spec.type === 'bool') values[spec.name] = convertBool(fromEnv, where);
      else if (spec.type === 'strings') {
        values[spec.name] = fromEnv
          .split(',')
          .map((s) => s.trim())
          .filter((s) => s !== '')
          .map((s) => (convert(spec, s, where), s));
      } else values[spec.name] = convert(spec, fromEnv, where);
    } else if (spec.default !== undefined) {
      values[spec.name] = Array.isArray(spec.default) ? [...spec.default] : spec.default;
    } else if (spec.type === 'strings') {
      values[spec.name] = [];
    }
  }
  return { flags: values, args };
}

export interface HelpRequestedOptions {
  /** when given, values of non-bool flags are skipped (`-address -h` is not a help request) */
  flags?: FlagSpec[];
  /** with `flags`: stop looking at the first positional argument (exec-like commands) */
  stopAtFirstArg?: boolean;
}

const HELP = new Set(['-h', '--h', '-help', '--help']);

/**
 * True when `-h`, `-help` or `--help` appears before any `--`. Pass the command's flags (and
 * `stopAtFirstArg`) so that `svc alloc exec ID ls -h` passes `-h` to the remote command.
 */
export function helpRequested(argv: string[], opts: HelpRequestedOptions = {}): boolean {
  const byName = opts.flags ? indexFlags(opts.flags) : undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--') return false;
    if (HELP.has(arg)) return true;
    if (!byName) continue;
    const token = classify(arg, byName);
    if (token.kind === 'positional' && opts.stopAtFirstArg) return false;
    if (token.kind === 'flag' && token.spec.type !== 'bool' && token.value === undefined) i++;
  }
  return false;
}
