/** `svc agent`: fingerprints the node, joins the servers, prints the banner, and runs until a signal. */
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { ClientTls } from '../api/tls.js';
import { fingerprintNode } from '../client/fingerprint.js';
import { NodeAgent, NodeRegistrationRefused } from '../client/node-agent.js';
import { createLogger, type LogLevel } from '../shared/log.js';
import { VERSION } from '../version.js';
import type { Io } from './io.js';

export interface AgentOptions {
  /** origins of the servers, checked */
  servers: string[];
  dataDir: string;
  /** management token for the node's first registration */
  token?: string;
  tls: ClientTls;
  logLevel: LogLevel;
  node: { datacenter: string; name?: string; nodeClass: string; meta: Record<string, string> };
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
  // Caught from the first moment, as `svc server` does: the default action would cut a status report short.
  let signalled: (name: string) => void = () => undefined;
  const signal = new Promise<string>((resolve) => (signalled = resolve));
  const onSignal = (name: string) => () => signalled(name);
  process.once('SIGINT', onSignal('SIGINT'));
  process.once('SIGTERM', onSignal('SIGTERM'));

  const log = createLogger(opts.logLevel);
  let fingerprint;
  try {
    await mkdir(opts.dataDir, { recursive: true, mode: 0o700 });
    fingerprint = await fingerprintNode({ dataDir: opts.dataDir, ...opts.node });
  } catch (err) {
    io.err(`Error starting agent: ${(err as Error).message}`);
    return 1;
  }
  const { node, secret } = fingerprint;
  let refusal: NodeRegistrationRefused | undefined;
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
    onRefused: (err) => {
      refusal = err;
      refusedWith(err);
    },
  });
  // The first registration is tried before the banner: a refusal is the one line the user reads. A signal
  // meanwhile (a server that accepts the connection but does not answer) ends it.
  const early = await Promise.race([agent.start(), signal]);
  if (typeof early === 'string') {
    io.out(`==> Caught ${early}, shutting down`);
    await agent.stop();
    io.out('==> svc agent stopped');
    return 0;
  }
  if (refusal) {
    await agent.stop();
    io.err(refusalText(refusal, opts));
    return 1;
  }

  const drivers = Object.entries(node.Drivers);
  const usable = drivers.filter(([, d]) => d.Detected && d.Healthy).map(([name]) => name);
  const lines = [
    '==> svc agent started! Log data will stream in below:',
    '',
    `             Version: ${VERSION}`,
    `             Servers: ${opts.servers.join(', ')}`,
    `            Data dir: ${opts.dataDir}`,
    `                Node: ${node.Name} (${node.ID.slice(0, 8)}), datacenter ${node.Datacenter}, drivers: ${usable.join(', ') || 'none'}`,
  ];
  // A driver the node cannot offer says why, so a job that needs it is not a mystery later.
  for (const [name, d] of drivers) if (!(d.Detected && d.Healthy)) lines.push(`                      ${name} unavailable: ${d.HealthDescription}`);
  io.out(`${lines.join('\n')}\n`);

  const outcome = await Promise.race([signal, refused]);
  if (outcome instanceof NodeRegistrationRefused) {
    await agent.stop();
    io.err(refusalText(outcome, opts));
    return 1;
  }
  io.out(`==> Caught ${outcome}, shutting down`);
  await agent.stop();
  io.out('==> svc agent stopped');
  return 0;
}
