/**
 * Builds the server: storage, secrets and scheduler services, the route tables and the HTTP listener.
 * Nothing listens on import; `listen()` does, and `close()` drains in-flight requests before closing storage.
 */
import type http from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import path from 'node:path';
import { uuid } from '../shared/ids.js';
import { createLogger, type LogLevel } from '../shared/log.js';
import { bindKeyring, openServerStorage } from './storage.js';
import { Seal } from '../storage/seal.js';
import { META_TABLE, type Store } from '../storage/store.js';
import type { SealKeySource } from '../storage/seal-key.js';
import { AuditLog } from './audit/audit-log.js';
import { MountTable } from '../secrets/mounts/mount-table.js';
import { SecretMountTable } from '../secrets/mounts/secret-mount-table.js';
import { kvEngineStorage } from '../secrets/kv/storage.js';
import { kvBackendFor } from '../secrets/kv/backend.js';
import { TokenStore } from '../secrets/token/token-store.js';
import { PolicyStore } from '../secrets/policy/policy-store.js';
import { IdentityStore } from '../secrets/identity/identity-store.js';
import { sysBackend } from '../secrets/sys/backend.js';
import { identityBackend } from '../secrets/identity/backend.js';
import { tokenBackend } from '../secrets/token/backend.js';
import { ensureClusterId, initialized as stateInitialized } from '../secrets/sys/cluster-identity.js';
import { tokenTidySettled } from '../secrets/token/path-tidy.js';
import { AUTH_METHOD_TYPE_ALIASES, AUTH_METHOD_TYPES, createAuthMethods, type AuthMethods } from '../secrets/auth/backends.js';
import { deleteMountEntries } from '../secrets/auth/cloud/mount-storage.js';
import { schedulerRoutes, schedulerWsRoutes } from '../scheduler/http/routes.js';
import { createUpgradeHandler } from '../scheduler/http/upgrade.js';
import { handleSecrets, type SecretsRouting } from '../secrets/http/pipeline.js';
import { handleScheduler } from '../scheduler/http/pipeline.js';
import { tokenRefusal } from '../scheduler/http/caller.js';
import { createHttpServer } from '../framework/http/listener.js';
import { createRouter, sideError } from '../framework/http/router.js';
import { loadServerTls, type TlsSettings } from './tls.js';
import { logRequest } from './request-log.js';
import { uiHandler } from './ui/ui-assets.js';
import type { RawRequest, RawResponse } from '../framework/http/types.js';
import type { ServerConfig, Services } from './services.js';
import { VERSION } from '../version.js';
import { DEFAULT_TELEMETRY, type TelemetryConfig } from '../shared/metrics/telemetry-config.js';
import { watchServerMetrics } from './server-metrics.js';
import { SchedulerRuntime } from '../scheduler/runtime.js';
import { SoleLeadership } from '../cluster/sole-leadership.js';
import type { Leadership, ServerIdentity } from '../cluster/leadership.js';
import { fencedStore } from '../cluster/fenced-store.js';
import { DEFAULT_BROKER_OPTIONS, EventBroker } from '../scheduler/events/broker.js';
import { leaderForwarder } from '../cluster/forward-to-leader.js';
import { nodeForwarder } from '../cluster/node-forwarder.js';
import { loadServerId } from '../cluster/server-id.js';
import { joinCluster, MEMBER_HEARTBEAT_MS, startMemberHeartbeat, type MemberHeartbeat } from '../cluster/members.js';
import { nodeDrivers } from '../client/drivers/registry.js';
import type { LocalNodeOptions } from './local-node.js';
import type { NodeAgent } from '../client/node-agent.js';
import type { Node } from '../scheduler/structs/node.js';

export interface ServerOptions {
  dev: boolean;
  /** without it, -dev keeps its data in a temporary directory removed at shutdown */
  dataDir?: string;
  bind?: string;
  port?: number;
  logLevel?: LogLevel;
  /** JSON log lines (hclog's: Nomad's log_json, Vault's log_format = "json") instead of text */
  logJson?: boolean;
  /** -dev only: use this root token instead of a random one */
  devRootTokenId?: string;
  maxRequestBytes?: number;
  sweepIntervalMs?: number;
  /** how often the cloud auth mounts' access and deny lists are tidied (default: hourly) */
  cloudTidyIntervalMs?: number;
  /** how often this server rewrites its cluster member record (default: every 5 s) */
  memberHeartbeatMs?: number;
  /** how often exec sessions send a heartbeat frame (default: every 10 s, as Nomad's client does) */
  execHeartbeatMs?: number;
  /** how often the scheduler's state is garbage collected (default: every 5 minutes) */
  gcIntervalMs?: number;
  logWrite?: (line: string) => void;
  /** the node this server runs tasks on; `false` runs a server without one */
  client?: LocalNodeOptions | false;
  /** the heartbeat TTL nodes are given (Nomad's min_heartbeat_ttl; default 10 s) */
  heartbeatTtlMs?: number;
  /** how long past its TTL a silent node is still waited for before it is marked down (Nomad's heartbeat_grace; default 10 s) */
  heartbeatGraceMs?: number;
  /** the TTL every ready node gets when this server takes the lead (Nomad's failover_heartbeat_ttl; default 5 min) */
  heartbeatFailoverTtlMs?: number;
  /** the cloud auth method's CLOUD_* variables (default: the process environment) and metadata service */
  cloud?: Partial<ServerConfig['cloud']>;
  /** serve HTTPS with this certificate, and verify client certificates against its client CAs */
  tls?: TlsSettings;
  /** the external seal key the keyring is encrypted with; without it the keyring lies in the data dir in the clear */
  sealKey?: SealKeySource;
  /**
   * GET /v1/sys/health waits until ready() is called instead of answering once listen() is done: `svc
   * server` opens it after the token file is written and the banner printed, so a script that polls health
   * and then runs commands never races the start. Everything else is served from listen() on (the
   * server's own node registers through the API).
   */
  holdHealthUntilReady?: boolean;
  /** the file audit device: every request and answer is appended to this file */
  auditFile?: string;
  /** keep the state in this PostgreSQL database instead of LMDB in the data dir */
  storageUrl?: string;
  /** with storageUrl: how long a write may stall holding the database, and the leader's lease (storage "postgres") */
  postgresTimeouts?: { idleInTransactionMs?: number; statementMs?: number; leaderLeaseMs?: number };
  /** the API address other servers reach this one at (http(s)://host:port); by default the listen address */
  advertise?: string;
  /** keep the state in memory only (tests that need no disk): nothing of it survives the server */
  memoryStorage?: boolean;
  /** the `telemetry` block: the metrics endpoints' formats and who may read them */
  telemetry?: Partial<TelemetryConfig>;
  /** the writes the event stream keeps for resuming clients (Nomad's event_buffer_size; default 100); 0 serves no event stream */
  eventBufferSize?: number;
  /** how far an event stream client may fall behind, in bytes of the writes' JSON, before it is cut off (default 32 MiB) */
  eventBacklogBytes?: number;
}

export interface SvcServer {
  services: Services;
  routing: SecretsRouting;
  /** the auth methods built for this server (its cloud mounts' clients, caches and tidies) */
  authMethods: AuthMethods;
  /** the root token made at this start, if one was (first start, or every -dev start) */
  rootToken?: string;
  /** the server's own node, once listen() has started it */
  node(): Node | undefined;
  handle(raw: RawRequest): Promise<RawResponse>;
  listen(): Promise<{ address: string; port: number }>;
  /** Opens GET /v1/sys/health, held back with `holdHealthUntilReady` until the caller is done starting. */
  ready(): void;
  /** the tasks close() stops and waits for (the node's, in dev mode), and the longest that may take */
  tasksToStop(): { tasks: number; withinMs: number };
  /**
   * Lets close() go on without waiting for the node's tasks, also once it has begun: they keep running,
   * and the data directory is kept (even a temporary one), so a server started on it finds them again
   * and finishes stopping them.
   */
  leaveTasks(): { tasks: number; dataDir: string };
  close(): Promise<void>;
}

/** How long a server on a shared database waits at start for the cluster to have a leader. */
const LEADER_WAIT_MS = 15_000;

/** How long shutdown waits for requests in flight. */
const SHUTDOWN_GRACE_MS = 10_000;

async function waitAtMost(ms: number, done: Promise<unknown>): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([done, new Promise((resolve) => (timer = setTimeout(resolve, ms)))]);
  clearTimeout(timer);
}

export async function buildServer(opts: ServerOptions): Promise<SvcServer> {
  const config: ServerConfig = {
    dev: opts.dev,
    bind: opts.bind ?? '127.0.0.1',
    port: opts.port ?? 4646,
    dataDir: opts.dataDir,
    logLevel: opts.logLevel ?? 'info',
    maxRequestBytes: opts.maxRequestBytes ?? 32 * 1024 * 1024,
    sweepIntervalMs: opts.sweepIntervalMs ?? 60_000,
    cloudTidyIntervalMs: opts.cloudTidyIntervalMs ?? 3_600_000,
    memberHeartbeatMs: opts.memberHeartbeatMs ?? MEMBER_HEARTBEAT_MS,
    execHeartbeatMs: opts.execHeartbeatMs ?? 10_000,
    cloud: { env: opts.cloud?.env ?? process.env, metadataEndpoint: opts.cloud?.metadataEndpoint, allowSha1: opts.cloud?.allowSha1 ?? false },
    nodeClientCert: opts.tls?.nodeClientCert === true,
    storageType: opts.memoryStorage ? 'inmem' : opts.storageUrl ? 'postgresql' : 'lmdb',
    externalSealKey: opts.sealKey !== undefined,
    telemetry: {
      // As Nomad's dev agent: -dev serves the Prometheus format without a telemetry block.
      prometheusMetrics: opts.telemetry?.prometheusMetrics ?? (opts.dev || DEFAULT_TELEMETRY.prometheusMetrics),
      disableHostname: opts.telemetry?.disableHostname ?? DEFAULT_TELEMETRY.disableHostname,
      unauthenticatedMetricsAccess: opts.telemetry?.unauthenticatedMetricsAccess ?? DEFAULT_TELEMETRY.unauthenticatedMetricsAccess,
    },
  };
  // Before anything is created: a bad certificate file stops the start with the file named.
  const tls = opts.tls ? await loadServerTls(opts.tls, opts.client !== false) : undefined;
  const log = createLogger(opts.logLevel ?? 'info', { write: opts.logWrite, json: opts.logJson });
  const tempDir = opts.dev && !opts.dataDir ? await mkdtemp(path.join(tmpdir(), 'svc-dev-')) : undefined;
  const dataDir = opts.dataDir ?? tempDir!;

  let opened: Store | undefined;
  let audit: AuditLog | undefined;
  let unwatchMetrics: (() => void) | undefined;
  try {
    const seal = await Seal.open(dataDir, opts.sealKey);
    if (seal.movedToExternalKey) log.info(`keyring moved to the external seal key (${seal.keyLocation}); the data dir no longer holds it in the clear`);
    const store = (opened = await openServerStorage(dataDir, opts.storageUrl, opts.memoryStorage, log.named('storage'), opts.postgresTimeouts));
    const self: ServerIdentity = { ID: await loadServerId(dataDir), Name: hostname(), Address: '' };
    const leadership: Leadership = opts.storageUrl
      ? new (await import('../cluster/pg-leadership.js')).PgLeadership(opts.storageUrl, store, self, log.named('leader'), opts.postgresTimeouts?.leaderLeaseMs)
      : new SoleLeadership(self);
    await bindKeyring(store, seal, opts.storageUrl ? 'the state in the PostgreSQL database' : `the state in ${dataDir}`);
    const mounts = new MountTable(store, ['token', ...AUTH_METHOD_TYPES], AUTH_METHOD_TYPE_ALIASES);
    const schedulerSegments = new Set(schedulerRoutes.map((r) => r.path.split('/')[2]));
    const secretMounts = new SecretMountTable(store, { kv: kvEngineStorage(seal) }, schedulerSegments);
    const tokens = new TokenStore(store, seal, log.named('token'));
    const policies = new PolicyStore(store);
    const identity = new IdentityStore(store, mounts);
    // Every driver a node may run, the mock one included: exec's ACL goes by the task's driver, wherever it runs.
    const drivers = nodeDrivers({ enableMockDriver: true });
    const isolatesFs = (driver: string) => drivers.get(driver)?.fsIsolation === 'chroot';
    const scheduler = new SchedulerRuntime(store, log, isolatesFs, { ttlMs: opts.heartbeatTtlMs, graceMs: opts.heartbeatGraceMs, failoverTtlMs: opts.heartbeatFailoverTtlMs }, opts.gcIntervalMs);
    const shutdown = new AbortController();
    const authMethods = createAuthMethods();
    const authBackends = { cloud: authMethods.cloud.backend };
    const peerTls = tls && { cert: tls.options.cert as string, key: tls.options.key as string, ca: [tls.options.cert as string, ...(tls.options.ca ? [tls.options.ca as string] : [])] };
    const services: Services = { version: VERSION, config, log, store, seal, tokens, policies, mounts, secretMounts, identity, authBackends, scheduler, leadership, forwardToLeader: leaderForwarder(leadership, peerTls), forwardToNode: nodeForwarder(peerTls), stopping: false, shutdown: shutdown.signal };
    const auditDevices = (audit = await AuditLog.open(services, opts.auditFile));
    services.audit = auditDevices;
    unwatchMetrics = watchServerMetrics(services, opts.memoryStorage || opts.storageUrl ? undefined : dataDir);
    const events = opts.eventBufferSize === 0 ? undefined : new EventBroker(store, { ...DEFAULT_BROKER_OPTIONS, size: opts.eventBufferSize ?? DEFAULT_BROKER_OPTIONS.size, backlogBytes: opts.eventBacklogBytes ?? DEFAULT_BROKER_OPTIONS.backlogBytes });
    services.events = events;
    mounts.onDisable((m) => tokens.revokeByMount(m.accessor));
    mounts.onDisable((m) => identity.removeAliasesOfMount(m.accessor));
    // A disabled cloud mount's configuration, roles and lists go with it.
    mounts.onDisable(async (m) => {
      if (m.type === 'cloud') await store.write((tx) => deleteMountEntries(tx, m.accessor));
      if (Object.hasOwn(authMethods, m.type)) authMethods[m.type as keyof AuthMethods].forgetMount(m.accessor);
    });

    const tokenMount = await mounts.ensure('auth/token/', 'token', 'token based credentials');
    await secretMounts.ensureBuiltins();
    await ensureClusterId(store);
    // -dev is for trying things: the cloud login is there without a setup step, at its usual path.
    if (opts.dev) await mounts.ensure('auth/cloud/', 'cloud', 'cloud instance and principal identity');
    // As Vault's dev server: a versioned key/value store at secret/, ready for `kv put`.
    if (opts.dev) await secretMounts.ensure('secret/', 'kv', { description: 'key/value secret storage', options: { version: '2' } });
    const initialized = stateInitialized(store);
    let rootToken: string | undefined;
    const reusable = opts.dev && opts.devRootTokenId ? tokens.find(opts.devRootTokenId) : undefined;
    if (reusable) {
      // -dev on a kept data dir with a fixed root token: the token from the last start is still it.
      rootToken = opts.devRootTokenId;
    } else if (!initialized || opts.dev) {
      // Each -dev start makes a new root token; the previous one is revoked so they do not pile up.
      const previous = store.get<string>(META_TABLE, 'dev_root_token');
      if (opts.dev && previous) await tokens.revoke(previous);
      const created = await tokens.create({
        policies: ['root'],
        path: 'auth/token/root',
        mountAccessor: tokenMount.accessor,
        displayName: 'root',
        orphan: true,
        secret: opts.dev ? opts.devRootTokenId : undefined,
      });
      rootToken = created.secret;
      await store.write((tx) => {
        tx.put(META_TABLE, 'initialized', true);
        if (opts.dev) tx.put(META_TABLE, 'dev_root_token', created.entry.id);
      });
    }

    const routing: SecretsRouting = {
      fixed: { 'sys/': sysBackend, 'identity/': identityBackend },
      authTypes: { token: tokenBackend, ...authBackends },
      engines: kvBackendFor,
    };
    const route = createRouter({
      secrets: (raw, rel, requestId) => handleSecrets(raw, rel, requestId, services, routing),
      scheduler: (raw, parts, requestId) => handleScheduler(raw, parts, requestId, services, schedulerRoutes),
      tokenRefusal: (raw) => tokenRefusal(raw, services),
      secretsMount: (segment) => secretMounts.hasMountUnder(segment),
    });

    // Requests being answered, so that close() can let them finish before storage goes away.
    let inFlight = 0;
    let drained: (() => void) | undefined;
    let healthOpen = false;
    let openHealth: () => void = () => undefined;
    const healthOpened = new Promise<void>((resolve) => (openHealth = resolve));
    shutdown.signal.addEventListener('abort', () => openHealth(), { once: true });
    const markReady = () => {
      healthOpen = true;
      openHealth();
    };
    const httpLog = log.named('http');
    // The web UI's files are no API request: not audited, and answered before any route is matched.
    const ui = uiHandler();
    async function handle(raw: RawRequest): Promise<RawResponse> {
      if (!healthOpen && raw.path === '/v1/sys/health') await healthOpened;
      // The request log is a debug line: its clock is read only when it is written.
      const started = httpLog.enabled('debug') ? process.hrtime.bigint() : undefined;
      const requestId = uuid();
      inFlight++;
      try {
        const answer = await (ui(raw) ?? auditDevices.record(raw, requestId, () => route(raw, requestId)));
        if (started !== undefined) logRequest(httpLog, raw, answer.status, started, requestId);
        return { ...answer, headers: { ...answer.headers, 'x-svc-request-id': requestId } };
      } finally {
        if (--inFlight === 0) drained?.();
      }
    }

    const httpServer: http.Server = createHttpServer(handle, {
      tls: tls?.options,
      maxRequestBytes: config.maxRequestBytes,
      tooLarge: (p) => {
        const msg = `request body too large: the limit is ${config.maxRequestBytes} bytes`;
        const answer = sideError(p, 413, msg);
        answer.headers['x-svc-request-id'] = uuid();
        return answer;
      },
    });

    const upgrades = createUpgradeHandler(services, schedulerWsRoutes);
    httpServer.on('upgrade', upgrades.handle);

    // The once-per-cluster work, on the leader only: the scheduler's (fenced), and token expiry and the
    // cloud tidy (each write of theirs is idempotent, so a late one after a hand-over is harmless).
    let leaderTimers: NodeJS.Timeout[] = [];
    const leaderWork = {
      onLead(fence: Parameters<typeof fencedStore>[1]) {
        scheduler.lead(fencedStore(store, fence));
        const sweeper = setInterval(() => {
          tokens.sweepExpired().catch((err: Error) => log.error(`token sweep failed: ${err.message}`));
        }, config.sweepIntervalMs);
        const cloudTidy = setInterval(() => {
          try {
            authMethods.cloud.state.tidies.periodic(services);
          } catch (err) {
            log.error(`periodic cloud tidy failed: ${(err as Error).message}`);
          }
        }, config.cloudTidyIntervalMs);
        leaderTimers = [sweeper, cloudTidy];
        for (const timer of leaderTimers) timer.unref();
      },
      async onStepDown() {
        for (const timer of leaderTimers) clearInterval(timer);
        leaderTimers = [];
        await scheduler.stepDown();
      },
    };
    // A server alone on its state leads at once. Servers sharing a database compete once they listen,
    // when the address the others reach the leader at is known.
    if (!opts.storageUrl) await leadership.start(leaderWork);
    let localNode: NodeAgent | undefined;
    let memberHeartbeat: MemberHeartbeat | undefined;

    let closed = false;
    let keepDataDir = false;
    return {
      services,
      routing,
      authMethods,
      rootToken,
      node: () => localNode?.node,
      handle,
      async listen() {
        const bound = await new Promise<{ address: string; port: number }>((resolve, reject) => {
          httpServer.once('error', reject);
          httpServer.listen(config.port, config.bind, () => {
            httpServer.off('error', reject);
            const addr = httpServer.address();
            if (addr && typeof addr === 'object') resolve({ address: addr.address, port: addr.port });
          });
        });
        // Port 0 asks for any free port: from here on the config says which one (agent-info shows it).
        config.port = bound.port;
        const wildcard = bound.address === '0.0.0.0' || bound.address === '::';
        const scheme = tls ? 'https' : 'http';
        const hostOf = (address: string) => (address.includes(':') ? `[${address}]` : address);
        self.Address = opts.advertise ?? `${scheme}://${wildcard ? hostname() : hostOf(bound.address)}:${bound.port}`;
        // Each server keeps its own record in the member list (svc operator members), from here to close.
        await joinCluster(store, self, VERSION);
        memberHeartbeat = startMemberHeartbeat(store, self, VERSION, config.memberHeartbeatMs, log.named('cluster'));
        if (opts.storageUrl) {
          await leadership.start(leaderWork);
          // Nodes register with the leader: wait (a while) for the cluster to have one before this
          // server's own node starts and before the server reports itself ready.
          for (let waited = 0; !leadership.knownLeader() && waited < LEADER_WAIT_MS; waited += 50) await new Promise((r) => setTimeout(r, 50));
        }
        // The node reaches the server over HTTP, so it can only start once the server listens. Over TLS it
        // accepts only the server's own certificate, and presents it when asked for a client certificate.
        if (opts.client !== false) {
          const { startLocalNode } = await import('./local-node.js');
          const host = wildcard ? '127.0.0.1' : hostOf(bound.address);
          const server = tls
            ? { address: `https://${host}:${bound.port}`, tls: { clientCert: opts.tls!.certFile, clientKey: opts.tls!.keyFile, pinnedCert: tls.fingerprint } }
            : { address: `http://${host}:${bound.port}` };
          localNode = await startLocalNode(services, server, dataDir, {
            stopTasksOnShutdown: opts.dev,
            ...opts.client,
          });
        }
        if (!opts.holdHealthUntilReady) markReady();
        return bound;
      },
      ready: markReady,
      tasksToStop: () => localNode?.tasksToStop() ?? { tasks: 0, withinMs: 0 },
      leaveTasks() {
        const tasks = localNode?.leaveTasks() ?? 0;
        if (tasks > 0) keepDataDir = true;
        return { tasks, dataDir };
      },
      async close() {
        if (closed) return;
        closed = true;
        // Stop accepting and drop idle keep-alive connections; blocking queries answer within a second;
        // requests in flight finish (up to a bound) before storage closes under them.
        services.stopping = true;
        shutdown.abort();
        await upgrades.close();
        await localNode?.stop();
        await leadership.stop();
        await memberHeartbeat?.stop();
        const wasListening = httpServer.listening;
        const allClosed = new Promise<void>((resolve) => httpServer.once('close', () => resolve()));
        httpServer.close();
        httpServer.closeIdleConnections();
        // Timers here stay referenced: they are what keeps the process alive until storage is closed.
        if (inFlight > 0) await waitAtMost(SHUTDOWN_GRACE_MS, new Promise<void>((resolve) => (drained = resolve)));
        if (wasListening) {
          // The last answers are written after their handlers return: let them go out, then wait for
          // the connections to end (briefly) before cutting what is left.
          await new Promise((resolve) => setImmediate(resolve));
          httpServer.closeIdleConnections();
          await waitAtMost(1000, allClosed);
        }
        httpServer.closeAllConnections();
        // A background tidy stops at its next batch once `stopping` is set; let it get there, then the
        // methods' worker threads stop.
        for (const method of Object.values(authMethods)) await method.close();
        await tokenTidySettled(store);
        await audit?.close();
        unwatchMetrics?.();
        await events?.close();
        await store.close();
        if (tempDir && !keepDataDir) await rm(tempDir, { recursive: true, force: true });
      },
    };
  } catch (err) {
    unwatchMetrics?.();
    await audit?.close().catch(() => undefined);
    await opened?.close().catch(() => undefined);
    if (tempDir) await rm(tempDir, { recursive: true, force: true });
    throw err;
  }
}
