/**
 * The node inside `svc server`: fingerprinted, its secret authorised by the server (it is the server's
 * own node, so it needs no token to join), then run by a NodeAgent that registers and works through the
 * node API over HTTP, as a node on another machine would.
 */
import path from 'node:path';
import type { ClientTls } from '../api/http/tls.js';
import type { Services } from './services.js';
import { authorizeNodeSecret } from '../scheduler/state/nodes.js';
import { IN_PROCESS, recordHolder } from '../cluster/node-holders.js';
import { fingerprintNode } from '../client/fingerprint.js';
import type { NodeCgroupOptions } from '../client/cgroups/node-cgroups.js';
import { NodeAgent } from '../client/node-agent.js';

export interface LocalNodeOptions {
  datacenter?: string;
  name?: string;
  nodeClass?: string;
  meta?: Record<string, string>;
  /** the mock driver is for tests and benchmarks; a real node does not offer it */
  enableMockDriver?: boolean;
  /** stop every task when the server stops (dev mode, tests); otherwise tasks outlive a restart */
  stopTasksOnShutdown?: boolean;
  /** the client's cgroup settings: `cgroup_parent`, `pids_limit`, `memory_oversubscription` */
  cgroups?: Partial<NodeCgroupOptions>;
}

/** `server` is where the node reaches the server's API, and the TLS it does that with. */
export async function startLocalNode(services: Services, server: { address: string; tls?: ClientTls }, dataDir: string, opts: LocalNodeOptions): Promise<NodeAgent> {
  const clientDir = path.join(dataDir, 'client');
  const { node, secret } = await fingerprintNode({
    dataDir,
    datacenter: opts.datacenter ?? 'dc1',
    name: opts.name,
    nodeClass: opts.nodeClass ?? '',
    meta: opts.meta ?? {},
    httpAddr: new URL(server.address).host,
    enableMockDriver: opts.enableMockDriver ?? false,
    cgroups: opts.cgroups,
  });
  await authorizeNodeSecret(services.store, node.ID, secret);
  const agent = new NodeAgent({
    node,
    secret,
    servers: [server.address],
    serverTls: server.tls,
    allocsDir: path.join(clientDir, 'allocs'),
    log: services.log.named('client'),
    stopTasksOnShutdown: opts.stopTasksOnShutdown ?? false,
  });
  services.scheduler.localNodes.set(node.ID, agent);
  // The other servers of a cluster forward what reaches into its tasks here.
  await recordHolder(services.store, node.ID, services.leadership.self.ID, IN_PROCESS);
  await agent.start();
  return agent;
}
