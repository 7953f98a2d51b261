/**
 * `svc ui`, as `nomad ui`: the web UI's URL on the server this command talks to (its namespace and
 * region as query parameters, an identifier's page as its path), with `?ott=` when -authenticate, then
 * opened with the platform's opener or printed with -show-url.
 */
import { spawn } from 'node:child_process';
import type { CommandContext } from '../define.js';
import { clientFor } from '../client-from-flags.js';
import { CommandFailure, reportingFailures } from '../command-failure.js';
import { completeValues } from '../complete-values.js';
import { orFail } from '../failures/api.js';

const KINDS = [
  { kind: 'job', title: 'Jobs', path: (id: string, namespace: string) => `/ui/jobs/${encodeURIComponent(`${id}@${namespace}`)}` },
  { kind: 'alloc', title: 'Allocs', path: (id: string) => `/ui/allocations/${encodeURIComponent(id)}` },
  { kind: 'node', title: 'Nodes', path: (id: string) => `/ui/clients/${encodeURIComponent(id)}` },
] as const;

/** The page of the one object the prefix names: as Nomad decides, an exact match first, else a sole match. */
async function pageOf(ctx: CommandContext, id: string, namespace: string): Promise<string> {
  const signal = new AbortController().signal;
  const found = (await Promise.all(KINDS.map(async (k) => ({ k, ids: await completeValues(ctx, k.kind, id, signal) })))).filter((m) => m.ids.length > 0);
  if (found.length === 0) throw new CommandFailure(`No matches returned for query: "${id}"`);
  const exact = found.filter((m) => m.ids[0] === id);
  const chosen = exact.length === 1 ? exact[0] : exact.length === 0 && found.length === 1 && found[0].ids.length === 1 ? found[0] : undefined;
  if (!chosen) throw new CommandFailure([`Multiple matches found for id "${id}"`, ...found.map((m) => `\n${m.k.title}:\n${m.ids.join(', ')}`)].join('\n'));
  return chosen.k.path(chosen.ids[0], namespace);
}

/** The platform's way to open a URL in the default browser. */
function opener(url: string): [string, string[]] {
  if (process.platform === 'darwin') return ['open', [url]];
  if (process.platform === 'win32') return ['cmd', ['/c', 'start', '', url]];
  return ['xdg-open', [url]];
}

function openInBrowser(url: string): Promise<void> {
  const [command, args] = opener(url);
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: 'ignore', detached: true });
    child.once('error', (err) => reject(new CommandFailure(`Error opening URL: ${command}: ${err.message} (svc ui -show-url prints the URL instead)`)));
    child.once('spawn', () => {
      child.unref();
      resolve();
    });
  });
}

export function openUi(ctx: CommandContext): Promise<number> {
  return reportingFailures(ctx, async () => {
    if (ctx.args.length > 1) throw new CommandFailure('This command takes no or one optional argument, [<identifier>]');
    const client = clientFor(ctx);
    const namespace = (ctx.flags.namespace as string | undefined) || undefined;
    const region = (ctx.flags.region as string | undefined) || undefined;
    const url = new URL(ctx.args[0] ? await pageOf(ctx, ctx.args[0], namespace ?? 'default') : '/ui/', client.config.address.replace(/\/+$/, '') + '/');
    if (namespace) url.searchParams.set('namespace', namespace);
    if (region) url.searchParams.set('region', region);
    let output = `Opening URL "${url}"`;
    if (ctx.flags.authenticate === true) {
      const made = await orFail('Could not get one-time token', () => client.scheduler<{ OneTimeToken: { OneTimeSecretID: string } }>('POST', '/v1/acl/token/onetime'));
      output = `Opening URL "${url}" with one-time token`;
      url.searchParams.set('ott', made.body.OneTimeToken.OneTimeSecretID);
    }
    if (ctx.flags['show-url'] === true) {
      ctx.io.out(`URL for web UI: ${url}`);
      return 0;
    }
    ctx.io.out(output);
    await openInBrowser(url.toString());
    return 0;
  });
}
