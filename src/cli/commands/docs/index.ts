/**
 * Commands about the CLI itself: shell completions, the callback the completion scripts use for values
 * only the server knows, and path-help.
 */
import { defineCommand, type CommandSpec, type CommandContext } from '../../define.js';
import { UsageError } from '../../../shared/errors.js';
import pathHelpCommand from '../path-help.js';

const SHELL_NAMES = ['bash', 'zsh', 'fish'] as const;

export const completionCommand = defineCommand({
  path: ['completion'],
  synopsis: 'Print a shell completion script',
  usage: 'svc completion bash|zsh|fish',
  description:
    'Prints the completion script for the given shell. It completes command words, flags (as -flag= for ' +
    'flags that take a value), the values of flags with a fixed set of choices, file names, and values ' +
    'only the server knows, such as policy and namespace names, by running `svc __complete` with the ' +
    'address and token of the environment. The same scripts are in the completions/ directory of the ' +
    'package.',
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
 * accepts connections but never answers must not hang the user's TAB.
 */
const COMPLETION_TIMEOUT_MS = 200;

/** Values for one completion kind that start with `prefix`, from the server. */
async function completeValues(ctx: CommandContext, kind: string, prefix: string, signal: AbortSignal): Promise<string[]> {
  const { clientFor } = await import('../../client-from-flags.js');
  const client = clientFor(ctx);
  const ids = async (path: string, key: 'ID' | 'Name') => {
    const { body } = await client.scheduler<Array<Record<string, unknown>>>('GET', path, { query: { prefix }, signal });
    return (body ?? []).map((item) => String(item[key]));
  };
  const listKeys = async (path: string) => {
    const answer = await client.secrets('GET', path, { query: { list: 'true' }, signal });
    const keys = answer?.data?.keys;
    return Array.isArray(keys) ? keys.map(String) : undefined;
  };
  switch (kind) {
    case 'policy': {
      // sys/policies/acl is the current listing; sys/policy the older one some servers keep.
      for (const path of ['sys/policies/acl', 'sys/policy']) {
        if (signal.aborted) break;
        try {
          const keys = await listKeys(path);
          if (keys) return keys;
        } catch {
          // try the next listing
        }
      }
      return [];
    }
    case 'role': {
      const { mountPrefix } = await import('../../auth-mount.js');
      return (await listKeys(`${mountPrefix(ctx.flags)}role`)) ?? [];
    }
    case 'namespace':
      return ids('/v1/namespaces', 'Name');
    case 'job':
      return ids('/v1/jobs', 'ID');
    case 'alloc':
      return ids('/v1/allocations', 'ID');
    case 'node':
      return ids('/v1/nodes', 'ID');
    case 'deployment': {
      // The server takes an even number of hex digits; the odd one out is matched below.
      if (!/^[0-9a-fA-F-]*$/.test(prefix)) return [];
      const even = prefix.replace(/-/g, '').length % 2 === 1 ? prefix.slice(0, -1) : prefix;
      const { body } = await client.scheduler<Array<{ ID: string }>>('GET', '/v1/deployments', { query: { prefix: even }, signal });
      return (body ?? []).map((d) => d.ID);
    }
    default:
      return [];
  }
}

export const completeCommand = defineCommand({
  path: ['__complete'],
  hidden: true,
  synopsis: 'Print completion values (used by the completion scripts)',
  usage: 'svc __complete [-path=MOUNT] KIND [PREFIX]',
  description:
    'Prints, one per line, the values of KIND (policy, namespace, job, alloc, node, deployment, role) that start ' +
    'with PREFIX, as the server knows them; role lists the cloud roles of the mount -path names. The ' +
    'completion scripts call it; on any error, or when the server has not answered within 200 ms, it ' +
    'prints nothing, so a missing or stuck server or a missing token never disturbs the shell.',
  family: 'local',
  flagSets: ['http'],
  flags: [{ name: 'path', type: 'string', default: 'cloud', description: 'For role: the mount path of the cloud auth method, relative to auth/.' }],
  args: [
    { name: 'kind', description: 'What to complete: policy, namespace, job, alloc, node, deployment or role.', required: true },
    { name: 'prefix', description: 'Only values starting with this are printed.' },
  ],
  async run(ctx) {
    const [kind, prefix = ''] = ctx.args;
    try {
      const values = (await completeValues(ctx, kind, prefix, AbortSignal.timeout(COMPLETION_TIMEOUT_MS))).filter((v) => v.startsWith(prefix)).sort();
      if (values.length > 0) ctx.io.out(values.join('\n'));
    } catch {
      // Completion must never print an error into the user's command line.
    }
    return 0;
  },
});

export const docsCommands: CommandSpec[] = [completionCommand, pathHelpCommand, completeCommand];
