/**
 * run(argv, streams, env) → exit code. The one place where errors become exit codes: each command family
 * keeps its upstream's convention (secrets commands: 1 local/usage error, 2 server error, as Vault;
 * scheduler commands: 1 for any error, as Nomad; 127 for an unknown command). main(argv) is the process
 * around it, for bin/svc: what no command reports itself (a reader that went away, a crash) ends there.
 */
import { ApiError, ConnectionError, CurlStringRequested, SvcError, UsageError } from './shared/errors.js';
import { createIo, type Io } from './cli/io.js';
import type { CommandSpec, FlagSpec } from './cli/define.js';
import { didYouMean } from './cli/suggest.js';
import { registryFor, type Registry } from './cli/registry.js';
import { FLAG_SETS } from './cli/flags/common.js';
import { helpRequested, parseArgs } from './cli/argv.js';
import { renderCommandHelp, renderGroupHelp, renderRootHelp } from './cli/output/help.js';
import { schedulerOutputMode } from './cli/output/scheduler-output-mode.js';
import { errColours, useColours } from './cli/output/colour.js';
import { lazyStdio } from './cli/stdio.js';

export const EXIT_UNKNOWN_COMMAND = 127;

export function flagsOf(spec: CommandSpec): FlagSpec[] {
  return [...(spec.flagSets ?? []).flatMap((s) => FLAG_SETS[s].flags), ...(spec.flags ?? [])];
}

/** The command whose words are the longest prefix of argv's leading words. */
export function findCommand(argv: string[], commands: CommandSpec[]): { spec?: CommandSpec; consumed: number } {
  let best: { spec?: CommandSpec; consumed: number } = { consumed: 0 };
  for (const spec of commands) {
    const n = spec.path.length;
    if (n > best.consumed && spec.path.every((w, i) => argv[i] === w)) best = { spec, consumed: n };
  }
  return best;
}

function subcommandsOf(path: string[], { commands, groups }: Registry): Array<{ name: string; synopsis: string }> {
  const seen = new Map<string, string>();
  for (const c of [...groups, ...commands.filter((cmd) => !cmd.hidden)]) {
    if (c.path.length === path.length + 1 && path.every((w, i) => c.path[i] === w)) seen.set(c.path[path.length], c.synopsis);
  }
  // Code-point order, not localeCompare: command names are ASCII, and collation costs ~7 ms to set up.
  return [...seen].map(([name, synopsis]) => ({ name, synopsis })).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

export interface RunHooks {
  /** the command argv names, once found and before it runs */
  commandFound?(spec: CommandSpec): void;
}

export async function run(
  argv: string[],
  // stdin is a getter: creating process.stdin costs a few ms, and most commands never read it.
  streams: Pick<Io, 'stdin' | 'stdout' | 'stderr'> = {
    get stdin() {
      return process.stdin;
    },
    stdout: process.stdout,
    stderr: process.stderr,
  },
  env: NodeJS.ProcessEnv = process.env,
  hooks: RunHooks = {},
): Promise<number> {
  const bare = createIo(streams, env, { noColor: argv.includes('-no-color') || argv.includes('--no-color'), forceColor: argv.includes('-force-color') || argv.includes('--force-color') });
  let spec: CommandSpec | undefined;
  let restoreColours: (() => void) | undefined;
  try {
    // Inside the try: loading a subtree's bundle can fail (an incomplete install), and that is one line too.
    const registry = await registryFor(argv);
    if (argv.length === 0 || ['-h', '-help', '--help'].includes(argv[0])) {
      bare.out(renderRootHelp(subcommandsOf([], registry)));
      return argv.length === 0 ? 1 : 0;
    }
    if (['-v', '-version', '--version'].includes(argv[0])) argv = ['version'];

    const found = findCommand(argv, registry.commands);
    spec = found.spec;
    if (!spec) {
      const words = argv.filter((a) => !a.startsWith('-'));
      for (let n = words.length; n > 0; n--) {
        const group = registry.groups.find((g) => g.path.length === n && g.path.every((w, i) => words[i] === w));
        if (group && argv.slice(0, n).every((w, i) => w === group.path[i])) {
          const help = renderGroupHelp(group.path, group.synopsis, group.description, subcommandsOf(group.path, registry));
          // A word after the group that names none of its commands is a mistake: say so, on stderr.
          if (words.length > n && !helpRequested(argv)) {
            const hint = didYouMean(group.path, words[n], subcommandsOf(group.path, registry).map((c) => c.name));
            bare.err(`Unknown command: svc ${words.join(' ')}${hint}\n\n${help}`);
            return EXIT_UNKNOWN_COMMAND;
          }
          bare.out(help);
          return helpRequested(argv) ? 0 : 1;
        }
      }
      const topLevel = [...registry.groups.map((g) => g.path[0]), ...registry.commands.filter((c) => !c.hidden).map((c) => c.path[0])];
      bare.err(`Unknown command: svc ${words.join(' ')}${words.length > 0 ? didYouMean([], words[0], topLevel) : ''}\nRun "svc -help" for the list of commands.`);
      return EXIT_UNKNOWN_COMMAND;
    }
    hooks.commandFound?.(spec);

    const rest = argv.slice(found.consumed);
    if (helpRequested(rest, { flags: flagsOf(spec), stopAtFirstArg: spec.stopAtFirstArg })) {
      bare.out(renderCommandHelp(spec, FLAG_SETS));
      return 0;
    }
    const parsed = await parseArgs(rest, flagsOf(spec), { stopAtFirstArg: spec.stopAtFirstArg, env, family: spec.family });
    const io = createIo(streams, env, {
      noColor: parsed.flags['no-color'] === true,
      forceColor: parsed.flags['force-color'] === true,
      nonInteractive: parsed.flags['non-interactive'] === true,
    });
    restoreColours = await useColours(io);
    const required = (spec.args ?? []).filter((a) => a.required).length;
    if (parsed.args.length < required) throw new UsageError(`Not enough arguments (expected ${required}, got ${parsed.args.length})`);
    if (!(spec.args ?? []).some((a) => a.variadic) && parsed.args.length > (spec.args ?? []).length) {
      throw new UsageError(`Too many arguments (expected ${(spec.args ?? []).length}, got ${parsed.args.length})`);
    }
    if (spec.flagSets?.includes('scheduler-output')) schedulerOutputMode(parsed.flags, env);
    const code = await spec.run({ io, env, flags: parsed.flags, args: parsed.args });
    return code ?? 0;
  } catch (err) {
    restoreColours ??= await useColours(bare);
    return reportError(bare, spec, err, env);
  } finally {
    restoreColours?.();
  }
}

/** Error lines are red where stderr takes colour, as Vault's and Nomad's CLIs print them. */
function reportError(io: Io, spec: CommandSpec | undefined, err: unknown, env: NodeJS.ProcessEnv): number {
  if (err instanceof CurlStringRequested) {
    io.out(err.curl);
    return 0;
  }
  const { red } = errColours();
  if (err instanceof UsageError && spec) {
    io.err(`${red(err.message)}\n\nUsage: ${spec.usage}\nRun "svc ${spec.path.join(' ')} -help" for more.`);
    return 1;
  }
  if (err instanceof ApiError) {
    if (spec?.family === 'scheduler') {
      io.err(red(`Error: Unexpected response code: ${err.statusCode} (${err.errors.join('; ')})`));
      return 1;
    }
    io.err(red(`Error: ${err.message}`));
    return 2;
  }
  if (err instanceof SvcError || err instanceof UsageError || err instanceof ConnectionError) {
    io.err(red(`Error: ${err.message}`));
    return err instanceof ConnectionError && spec?.family === 'secrets' ? 2 : 1;
  }
  io.err(red(internalErrorText(err, env.SVC_DEBUG === '1')));
  return 1;
}

/**
 * An error nothing expected (a bug, a broken install): its message's first line, since what follows is
 * Node's detail (a module's require stack), and the stack only when asked for.
 */
function internalErrorText(err: unknown, withStack: boolean): string {
  const message = err instanceof Error ? err.message : String(err);
  const line = `Error: ${message.split('\n')[0] || String(err)}`;
  return withStack && err instanceof Error && err.stack ? `${line}\n${err.stack}` : line;
}

/**
 * The process around run(), for bin/svc. A reader that goes away early (`svc job inspect big | head -1`)
 * fails the next write with EPIPE: the command ends there, quietly and with 0, as a Unix tool does,
 * except a daemon (the server), which keeps serving without that output, as Nomad's agent ignores
 * SIGPIPE. An exception or rejection no command caught is one line (the stack with SVC_DEBUG=1; always
 * for a daemon, whose crash is read in its log), and exit 1.
 */
export async function main(argv: string[]): Promise<void> {
  let daemon = false;
  const failedWrite = (err: NodeJS.ErrnoException) => {
    if (err.code !== 'EPIPE') crash(err);
    else if (!daemon) process.exit(0);
  };
  // Node's streams are created only if the command needs more than writing text (src/cli/stdio.ts).
  const stdout = lazyStdio(1, () => process.stdout, failedWrite);
  const stderr = lazyStdio(2, () => process.stderr, failedWrite);
  const crash = (err: unknown) => {
    stderr.stream.write(`${internalErrorText(err, daemon || process.env.SVC_DEBUG === '1')}\n`);
    process.exit(1);
  };
  process.on('uncaughtException', crash);
  process.on('unhandledRejection', crash);
  const streams = {
    get stdin() {
      return process.stdin;
    },
    stdout: stdout.stream,
    stderr: stderr.stream,
  };
  const commandFound = (spec: CommandSpec) => {
    daemon = spec.daemon === true;
    // A daemon's log goes to process.stderr itself: its other output must take the same way, in order.
    if (daemon) for (const s of [stdout, stderr]) s.settle();
  };
  process.exitCode = await run(argv, streams, process.env, { commandFound });
}
