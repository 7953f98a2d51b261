/**
 * argv → flag values and positional arguments, with the flag syntax HashiCorp users type (Go's `flag`
 * package, as Vault and Nomad use it), in three steps:
 *
 * - src/cli/flags/normalise.ts separates the flags from the positional arguments and rewrites them in
 *   commander's syntax; its header lists the conventions kept (`-name=value`, `-detach=false`, `-it`,
 *   flags after the path, `--`, a lone `-`, exec-like commands left untouched from their first argument).
 * - src/cli/flags/parse.ts has commander parse those flags against the declarations; its header lists the
 *   rules for values (types, aliases, repeated flags) and errors.
 * - Here, the flags not given take their environment variable's value or their default. Precedence:
 *   flag > environment variable (`env`, then the upstream tools' `upstreamEnv`, in the order
 *   flags/env-names.ts gives for the command's family; empty ones ignored) > `default`. Environment values are validated
 *   like flag values; a `strings` flag's environment value is split on commas. Unset bool and
 *   single-valued flags without env or default are absent (undefined), so a command can tell "not given"
 *   from "false"; unset `strings` flags are `[]`.
 *
 * This module is on every command's start-up path: only dependency-free project modules are imported
 * here. commander comes with parse.ts (dist/cli-flags.cjs), loaded only when there are flags to parse: it
 * adds about 5 ms to a start (README, Dependencies), which `svc version` and `svc status` without flags
 * are spared.
 */
import type { FlagSpec, FlagValues } from './define.js';
import { classify, indexFlags, normalise } from './flags/normalise.js';
import { envValue } from './flags/values.js';
import { envSource, type Family } from './flags/env-names.js';

export interface ParseArgsOptions {
  /** everything from the first positional argument on is positional (exec-like commands) */
  stopAtFirstArg?: boolean;
  /** where `FlagSpec.env` variables are read from; no environment is read when absent */
  env?: Record<string, string | undefined>;
  /** the command's family: which upstream's variables are read first */
  family?: Family;
}

export interface ParsedArgs {
  flags: FlagValues;
  args: string[];
}

export async function parseArgs(argv: string[], flags: FlagSpec[], opts: ParseArgsOptions = {}): Promise<ParsedArgs> {
  const byName = indexFlags(flags);
  const { options, args } = normalise(argv, byName, opts);
  const given = options.length === 0 ? {} : (await import('./flags/parse.js')).parseFlags(options, byName);
  return { flags: withEnvAndDefaults(byName, given, opts), args };
}

/** `given` completed with the environment's values and the defaults of the flags not in it. */
function withEnvAndDefaults(byName: ReadonlyMap<string, FlagSpec>, given: FlagValues, { env, family }: ParseArgsOptions): FlagValues {
  const values = { ...given };
  for (const spec of new Set(byName.values())) {
    if (values[spec.name] !== undefined) continue;
    const source = envSource(spec, env, family);
    if (source) values[spec.name] = envValue(spec, source.text, source.name);
    // A copy: a command may change its list, and the next parse must still see the declared default.
    else if (spec.default !== undefined) values[spec.name] = Array.isArray(spec.default) ? [...spec.default] : spec.default;
    else if (spec.type === 'strings') values[spec.name] = [];
  }
  return values;
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
