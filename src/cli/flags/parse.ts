/**
 * Normalised flags (src/cli/flags/normalise.ts) → the values of the flags given, parsed by commander
 * against options built from the FlagSpec declarations:
 *
 * - Every name and alias is an option of its own, stored under its FlagSpec's name: the last occurrence wins
 *   whichever name it was given under, and errors name the flag as the user typed it (`-t`, not `-tty`).
 * - A bool is `--name [bool]`, its value read in Go's ParseBool words; any other type is `--name <value>`,
 *   converted and checked by values.ts (ints, durations, choices). `strings` flags collect every
 *   occurrence, in order; a repeated single-valued flag keeps the last value.
 * - commander's errors become UsageErrors in Go's words: "flag provided but not defined: -x" (with the
 *   command's closest flags) and "flag needs an argument: -x". It prints nothing and never exits the
 *   process; its help is not used (help, man pages and completions are generated from the declarations).
 *
 * Environment variables and defaults are applied afterwards, by src/cli/argv.ts, for the flags not given
 * here: commander's `.env()` reads process.env (run() is handed its environment) and takes any value of a
 * bool variable for true, and a command given no flags is answered without loading commander.
 */
import { Command, Option, type CommanderError } from 'commander';
import type { FlagSpec, FlagValues } from '../define.js';
import { UsageError } from '../../shared/errors.js';
import { didYouMeanFlag } from '../suggest.js';
import { boolValue, flagValue } from './values.js';

/** An option stored under its spec's name, whatever name it is typed under. */
class FlagOption extends Option {
  constructor(
    flags: string,
    private readonly key: string,
  ) {
    super(flags);
    // `--no-color` is a flag of its own, not commander's negation of a `--color`.
    this.negate = false;
  }

  override attributeName(): string {
    return this.key;
  }
}

function optionFor(typed: string, spec: FlagSpec): Option {
  const where = `-${typed}`;
  const option = new FlagOption(`--${typed} ${spec.type === 'bool' ? '[bool]' : '<value>'}`, spec.name);
  if (spec.type === 'bool') return option.argParser((text: string) => boolValue(text, where));
  if (spec.type === 'strings') return option.argParser((text: string, previous: string[] | undefined) => (flagValue(spec, text, where), [...(previous ?? []), text]));
  return option.argParser((text: string) => flagValue(spec, text, where));
}

/** The names a mistyped flag may be meant as: the command's flags that help shows. */
function visibleNames(byName: ReadonlyMap<string, FlagSpec>): string[] {
  return [...byName].filter(([, spec]) => !spec.hidden).map(([name]) => name);
}

function usageError(err: CommanderError, byName: ReadonlyMap<string, FlagSpec>): UsageError {
  // commander quotes the option as normalise.ts wrote it: `unknown option '--detatch'`,
  // `option '--address <value>' argument missing`.
  const typed = /'--([^'= ]+)/.exec(err.message)?.[1];
  if (typed && err.code === 'commander.unknownOption') return new UsageError(`flag provided but not defined: -${typed}${didYouMeanFlag(typed, visibleNames(byName))}`);
  if (typed && err.code === 'commander.optionMissingArgument') return new UsageError(`flag needs an argument: -${typed}`);
  return new UsageError(err.message.replace(/^error: /, ''));
}

/** `options` (normalise.ts's output) parsed against every name of `byName`: the given flags' values. */
export function parseFlags(options: string[], byName: ReadonlyMap<string, FlagSpec>): FlagValues {
  const cmd = new Command()
    .helpOption(false)
    .showSuggestionAfterError(false)
    .configureOutput({ writeOut: () => {}, writeErr: () => {}, outputError: () => {} })
    .exitOverride((err) => {
      throw usageError(err, byName);
    });
  for (const [typed, spec] of byName) cmd.addOption(optionFor(typed, spec));
  return cmd.parse(options, { from: 'user' }).opts<FlagValues>();
}
