/**
 * Commands about the CLI itself: shell completions, the callback the completion scripts use for values
 * only the server knows, and path-help.
 */
import { defineCommand, type CommandSpec } from '../../define.js';
import { SERVER_KINDS } from '../../../shared/completion-kinds.js';
import { UsageError } from '../../../shared/errors.js';
import pathHelpCommand from '../path-help.js';

const SHELL_NAMES = ['bash', 'zsh', 'fish'] as const;

export const completionCommand = defineCommand({
  path: ['completion'],
  synopsis: 'Print a shell completion script',
  usage: 'svc completion bash|zsh|fish',
  description:
    'Prints the completion script for the given shell. It completes command words, flags (as -flag= for ' +
    'flags that take a value), the values of flags and K=V arguments with a fixed set of choices, file ' +
    'names, and values only the server knows (policies, namespaces, jobs, allocations, evaluations, ' +
    'deployments, nodes, services, auth mounts and accessors, identity entities and aliases, and the ' +
    'roles and lists of a cloud mount) by running `svc __complete`: with the address and token of the ' +
    'environment, or the -address and -token of the line, and with the line\'s -namespace and -path. ' +
    'When no server answers within 500 ms, those values are left out. The same scripts are in the ' +
    'completions/ directory of the package.',
  examples: [
    { command: 'svc completion bash > /etc/bash_completion.d/svc', description: 'Install the bash completion system-wide' },
    { command: 'source <(svc completion bash)', description: 'Enable bash completion in the current shell (add it to ~/.bashrc to keep it)' },
    { command: 'svc completion zsh > "${fpath[1]}/_svc"', description: 'Install the zsh completion' },
    { command: 'svc completion fish > ~/.config/fish/completions/svc.fish', description: 'Install the fish completion' },
  ],
  exitCodes: { 0: 'the script was printed', 1: 'an unknown shell' },
  family: 'local',
  args: [{ name: 'shell', description: 'The shell: bash, zsh or fish.', required: true, choices: SHELL_NAMES }],
  async run({ io, args }) {
    const shell = args[0];
    if (!(SHELL_NAMES as readonly string[]).includes(shell)) throw new UsageError(`unknown shell "${shell}": use one of ${SHELL_NAMES.join(', ')}`);
    const [{ renderCompletion }, { commands, groups }, { FLAG_SETS }] = await Promise.all([
      import('../../docs/completions.js'),
      import('../../registry.js').then((r) => r.fullRegistry()),
      import('../../flags/common.js'),
    ]);
    io.out(renderCompletion(shell as (typeof SHELL_NAMES)[number], commands, groups, FLAG_SETS));
    return 0;
  },
});

/**
 * How long completion waits for the server, all calls together: a shell blocks on it, and a server that
 * accepts connections but never answers must not hang the user's TAB. A secrets path takes up to three
 * calls in a row (the mounts, the mount's path patterns, the names under one), which a loaded machine did
 * not finish in 200 ms.
 */
const COMPLETION_TIMEOUT_MS = 500;

const KIND_LIST = Object.entries(SERVER_KINDS)
  .map(([kind, what]) => `${kind} (${what})`)
  .join(', ');

export const completeCommand = defineCommand({
  path: ['__complete'],
  hidden: true,
  synopsis: 'Print completion values (used by the completion scripts)',
  usage: 'svc __complete [options] KIND [PREFIX]',
  description:
    `Prints, one per line, sorted, the values of KIND that start with PREFIX, as the server knows them. The kinds: ${KIND_LIST}. ` +
    'Scheduler values are those of the namespace -namespace (or SVC_NAMESPACE) names, or of every ' +
    'namespace with *; the completion scripts pass on -namespace, -path, -address and the other options ' +
    'of the line being completed that this command takes. On any error, or when the server has not answered within 500 ms, it prints nothing, so a ' +
    'missing or stuck server or a missing token never disturbs the shell.',
  family: 'local',
  flagSets: ['http'],
  flags: [{ name: 'path', type: 'string', default: 'cloud', description: 'For the cloud kinds (role ... accesslist): the mount path of the cloud auth method, relative to auth/.' }],
  args: [
    { name: 'kind', description: `What to complete: ${Object.keys(SERVER_KINDS).join(', ')}.`, required: true },
    { name: 'prefix', description: 'Only values starting with this are printed.' },
  ],
  async run(ctx) {
    const [kind, prefix = ''] = ctx.args;
    try {
      const { completeValues } = await import('../../complete-values.js');
      const values = await completeValues(ctx, kind, prefix, AbortSignal.timeout(COMPLETION_TIMEOUT_MS));
      if (values.length > 0) ctx.io.out(values.join('\n'));
    } catch {
      // Completion must never print an error into the user's command line.
    }
    return 0;
  },
});

export const docsCommands: CommandSpec[] = [completionCommand, pathHelpCommand, completeCommand];
