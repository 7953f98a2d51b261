/** `svc agent`: fingerprints the node, joins the servers, prints the banner, and runs until a signal. */
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { ClientTls } from '../api/http/tls.js';
import { type FingerprintOptions, fingerprintNode } from '../client/fingerprint.js';
import { NodeAgent, NodeRegistrationRefused } from '../client/node-agent.js';
import { createLogger, type LogLevel } from '../shared/log.js';
import { VERSION } from '../version.js';
import type { Io } from './io.js';
import { nodeBannerLines, stopSignal } from './daemon.js';

export interface AgentOptions {
  /** origins of the servers, checked */
  servers: string[];
  dataDir: string;
  /** management token for the node's first registration */
  token?: string;
  tls: ClientTls;
  logLevel: LogLevel;
  /** JSON log lines (hclog's) instead of text */
  logJson?: boolean;
  node: { datacenter: string; name?: string; nodeClass: string; meta: Record<string, string>; cgroups?: FingerprintOptions['cgroups'] };
}

/** What the user can do about a refusal: the flag or file that settles it. */
function refusalText(err: NodeRegistrationRefused, opts: AgentOptions): string {
  if (err.statusCode === 403 && !err.withToken) {
    return `Error: the servers do not know node ${err.nodeId} yet, and a node's first registration needs a management token: pass -token (or set SVC_TOKEN)`;
  }
  if (err.statusCode === 403) return `Error: the servers refused the token of -token (SVC_TOKEN) (${err.reason}): a node's first registration needs a management token`;
  if (err.statusCode === 409) {
    return `Error: node ${err.nodeId} is registered with another secret: the ID in ${path.join(opts.dataDir, 'client', 'node-id')} belongs to another node; give this node a data dir of its own`;
  }
  return `Error: ${err.message}`;
}

export async function startAgent(opts: AgentOptions, io: Io): Promise<number> {
  const signal = stopSignal();

  const log = createLogger(opts.logLevel, { json: opts.logJson });
  let fingerprint;
  try {
    await mkdir(opts.dataDir, { recursive: true, mode: 0o700 });
    fingerprint = await fingerprintNode({ dataDir: opts.dataDir, ...opts.node });
  } catch (err) {
    io.err(`Error starting agent: ${(err as Error).message}`);
    return 1;
  }
  const { node, secret } = fingerprint;
  let refusedWith: (err: NodeRegistrationRefused) => void = () => undefined;
  const refused = new Promise<NodeRegistrationRefused>((resolve) => (refusedWith = resolve));
  const agent = new NodeAgent({
    node,
    secret,
    servers: opts.servers,
    serverTls: opts.tls,
    joinToken: opts.token,
    allocsDir: path.join(opts.dataDir, 'client', 'allocs'),
    log: log.named('client'),
    // As a Nomad client's: tasks outlive the agent, which finds them again when it restarts.
    stopTasksOnShutdown: false,
    tunnel: true,
    onRefused: (err) => refusedWith(err),
  });
  /** Stops the agent on a signal (exit 0) or a refusal (exit 1, saying why). */
  const finish = async (outcome: string | NodeRegistrationRefused): Promise<number> => {
    if (typeof outcome === 'string') io.out(`==> Caught ${outcome}, shutting down`);
    await agent.stop();
    if (typeof outcome !== 'string') {
      io.err(refusalText(outcome, opts));
      return 1;
    }
    io.out('==> svc agent stopped');
    return 0;
  };
  // The first registration is tried before the banner: a refusal is the one line the user reads. A signal
  // meanwhile (a server that accepts the connection but does not answer) ends it. A refusal is heard
  // before the registration returns, so it wins the race.
  const early = await Promise.race([agent.start().then(() => undefined), signal, refused]);
  if (early !== undefined) return finish(early);

  const lines = [
    '==> svc agent started! Log data will stream in below:',
    '',
    `             Version: ${VERSION}`,
    `             Servers: ${opts.servers.join(', ')}`,
    `            Data dir: ${opts.dataDir}`,
    ...nodeBannerLines(node),
  ];
  io.out(`${lines.join('\n')}\n`);
  return finish(await Promise.race([signal, refused]));
}
