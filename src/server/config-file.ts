/**
 * The server's configuration file, HCL or YAML (or JSON), with the same settings as the flags:
 *   data_dir = "/var/lib/svc"   bind_addr = "0.0.0.0"   port = 4646   log_level = "info"   log_json = false
 *   datacenter = "dc1"   name = "node-1"   client { enabled = true, node_class = "gpu", meta { rack = "r1" } }
 *   client { servers = ["https://10.0.0.1:4646", "https://10.0.0.2:4646"] }   (read by `svc agent` only)
 *   client { cgroup_parent = "svc"  pids_limit = 4096  memory_oversubscription = false }
 *   cloud { allow_sha1 = false }   seal { key_file = "/etc/svc/seal.key" }   audit { file = "/var/log/svc/audit.log" }
 *   tls { cert_file = "/etc/svc/tls/server.pem"  key_file = "..."  client_ca_file = "..."  require_client_cert = false  node_client_cert = false }
 *   storage "postgres" { url = "postgres://svc@db.internal/svc" }
 *   server { min_heartbeat_ttl = "10s"  heartbeat_grace = "10s"  failover_heartbeat_ttl = "5m"  advertise = "http://10.0.0.1:4646" }
 *   server { enable_event_broker = true  event_buffer_size = 100 }
 *   telemetry { prometheus_metrics = true  disable_hostname = true  unauthenticated_metrics_access = false }
 * A Nomad-style `ports { http = 4646 }` block is accepted too. Flags win over the file.
 */
import { readFile } from 'node:fs/promises';
import { UsageError } from '../shared/errors.js';
import { LOG_LEVELS, type LogLevel } from '../shared/log.js';
import { parseGoDuration } from '../shared/duration.js';
import type { SourcePos } from '../shared/hcl/source.js';

export interface FileConfig {
  dataDir?: string;
  bind?: string;
  port?: number;
  logLevel?: LogLevel;
  /** log_json = true (Nomad's) or log_format = "json" (Vault's) */
  logJson?: boolean;
  datacenter?: string;
  name?: string;
  client?: {
    enabled?: boolean;
    nodeClass?: string;
    meta?: Record<string, string>;
    servers?: string[];
    cgroups?: { parent?: string; pidsLimit?: number; memoryOversubscription?: boolean };
  };
  cloud?: { allowSha1?: boolean };
  tls?: { certFile?: string; keyFile?: string; clientCaFile?: string; requireClientCert?: boolean; nodeClientCert?: boolean };
  seal?: { keyFile?: string };
  audit?: { file?: string };
  telemetry?: { prometheusMetrics?: boolean; disableHostname?: boolean; unauthenticatedMetricsAccess?: boolean };
  storage?: { postgres?: { url?: string; idleInTransactionMs?: number; statementMs?: number; leaderLeaseMs?: number } };
  server?: { minHeartbeatTtlMs?: number; heartbeatGraceMs?: number; failoverHeartbeatTtlMs?: number; advertise?: string; enableEventBroker?: boolean; eventBufferSize?: number };
}

const KNOWN = new Set(['data_dir', 'bind_addr', 'port', 'ports', 'log_level', 'log_json', 'log_format', 'datacenter', 'name', 'client', 'cloud', 'tls', 'seal', 'audit', 'storage', 'server', 'telemetry']);
const CLIENT_KNOWN = new Set(['enabled', 'node_class', 'meta', 'servers', 'cgroup_parent', 'pids_limit', 'memory_oversubscription']);
const CLOUD_KNOWN = new Set(['allow_sha1']);
const TLS_KNOWN = new Set(['cert_file', 'key_file', 'client_ca_file', 'require_client_cert', 'node_client_cert']);
const SEAL_KNOWN = new Set(['key_file']);
const AUDIT_KNOWN = new Set(['file']);
const TELEMETRY_KNOWN = new Set(['prometheus_metrics', 'disable_hostname', 'unauthenticated_metrics_access']);
const STORAGE_KINDS = new Set(['postgres']);
const POSTGRES_KNOWN = new Set(['url', 'idle_in_transaction_timeout', 'statement_timeout', 'leader_lease']);
const SERVER_KNOWN = new Set(['min_heartbeat_ttl', 'heartbeat_grace', 'failover_heartbeat_ttl', 'advertise', 'enable_event_broker', 'event_buffer_size']);

/** Cited after "cannot parse config file FILE: ", as policies cite theirs; YAML's errors cite their own. */
class PlacedSyntaxError extends Error {
  constructor(message: string, pos: SourcePos) {
    super(`line ${pos.line}, column ${pos.column}: ${message}`);
  }
}

function single(v: unknown): unknown {
  return Array.isArray(v) && v.length === 1 && typeof v[0] === 'object' ? v[0] : v;
}

export async function loadConfigFile(file: string): Promise<FileConfig> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    throw new UsageError(`cannot read config file ${file}: ${(err as Error).message}`);
  }
  let doc: Record<string, unknown>;
  try {
    if (/\.ya?ml$/i.test(file)) {
      const { parse } = await import('yaml');
      doc = (parse(text) ?? {}) as Record<string, unknown>;
    } else if (text.trimStart().startsWith('{')) {
      const { readJsonDocument } = await import('../shared/hcl/json-document.js');
      doc = readJsonDocument(text, file, PlacedSyntaxError).value;
    } else {
      const { readDocument } = await import('../shared/hcl/document.js');
      doc = readDocument(text, file, PlacedSyntaxError).value;
    }
  } catch (err) {
    throw new UsageError(`cannot parse config file ${file}: ${(err as Error).message}`);
  }
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) throw new UsageError(`config file ${file} must hold settings at the top level`);
  for (const key of Object.keys(doc)) {
    if (!KNOWN.has(key)) throw new UsageError(`config file ${file}: unknown setting "${key}" (known: ${[...KNOWN].join(', ')})`);
  }
  const out: FileConfig = {};
  const typed = <T>(value: unknown, name: string, type: 'string' | 'boolean'): T | undefined => {
    if (value !== undefined && typeof value !== type) throw new UsageError(`config file ${file}: "${name}" must be ${type === 'string' ? 'a string' : 'true or false'}`);
    return value as T | undefined;
  };
  const str = (key: string) => typed<string>(doc[key], key, 'string');
  const block = (name: string, known: Set<string>): Record<string, unknown> | undefined => {
    const b = single(doc[name]);
    if (b === undefined) return undefined;
    if (typeof b !== 'object' || b === null || Array.isArray(b)) throw new UsageError(`config file ${file}: "${name}" must be a block`);
    for (const key of Object.keys(b)) {
      if (!known.has(key)) throw new UsageError(`config file ${file}: unknown setting "${name}.${key}" (known: ${[...known].join(', ')})`);
    }
    return b as Record<string, unknown>;
  };
  out.dataDir = str('data_dir');
  out.datacenter = str('datacenter');
  out.name = str('name');
  const client = block('client', CLIENT_KNOWN);
  if (client) {
    const meta = single(client.meta);
    if (meta !== undefined && (typeof meta !== 'object' || meta === null || Object.values(meta).some((v) => typeof v !== 'string'))) {
      throw new UsageError(`config file ${file}: "client.meta" must map keys to strings`);
    }
    const servers = client.servers;
    if (servers !== undefined && (!Array.isArray(servers) || servers.some((s) => typeof s !== 'string'))) {
      throw new UsageError(`config file ${file}: "client.servers" must be a list of server addresses (strings)`);
    }
    out.client = {
      enabled: typed<boolean>(client.enabled, 'client.enabled', 'boolean'),
      nodeClass: typed<string>(client.node_class, 'client.node_class', 'string'),
      meta: meta as Record<string, string> | undefined,
      servers: servers as string[] | undefined,
      cgroups: clientCgroups(client, file),
    };
  }
  const cloud = block('cloud', CLOUD_KNOWN);
  if (cloud) out.cloud = { allowSha1: typed<boolean>(cloud.allow_sha1, 'cloud.allow_sha1', 'boolean') };
  const tls = block('tls', TLS_KNOWN);
  if (tls) {
    out.tls = {
      certFile: typed<string>(tls.cert_file, 'tls.cert_file', 'string'),
      keyFile: typed<string>(tls.key_file, 'tls.key_file', 'string'),
      clientCaFile: typed<string>(tls.client_ca_file, 'tls.client_ca_file', 'string'),
      requireClientCert: typed<boolean>(tls.require_client_cert, 'tls.require_client_cert', 'boolean'),
      nodeClientCert: typed<boolean>(tls.node_client_cert, 'tls.node_client_cert', 'boolean'),
    };
  }
  const seal = block('seal', SEAL_KNOWN);
  if (seal) out.seal = { keyFile: typed<string>(seal.key_file, 'seal.key_file', 'string') };
  const audit = block('audit', AUDIT_KNOWN);
  if (audit) out.audit = { file: typed<string>(audit.file, 'audit.file', 'string') };
  // Nomad's and Vault's telemetry block; Vault's unauthenticated_metrics_access (a listener setting there) is here too.
  const telemetry = block('telemetry', TELEMETRY_KNOWN);
  if (telemetry) {
    out.telemetry = {
      prometheusMetrics: typed<boolean>(telemetry.prometheus_metrics, 'telemetry.prometheus_metrics', 'boolean'),
      disableHostname: typed<boolean>(telemetry.disable_hostname, 'telemetry.disable_hostname', 'boolean'),
      unauthenticatedMetricsAccess: typed<boolean>(telemetry.unauthenticated_metrics_access, 'telemetry.unauthenticated_metrics_access', 'boolean'),
    };
  }
  // HCL's `storage "postgres" { ... }` is { storage: { postgres: [{ ... }] } }; YAML and JSON write the
  // same without the list.
  const storage = block('storage', STORAGE_KINDS);
  if (storage) {
    const postgres = single(storage.postgres);
    if (typeof postgres !== 'object' || postgres === null || Array.isArray(postgres)) throw new UsageError(`config file ${file}: "storage.postgres" must be a block`);
    for (const key of Object.keys(postgres)) {
      if (!POSTGRES_KNOWN.has(key)) throw new UsageError(`config file ${file}: unknown setting "storage.postgres.${key}" (known: ${[...POSTGRES_KNOWN].join(', ')})`);
    }
    const settings = postgres as Record<string, unknown>;
    const url = typed<string>(settings.url, 'storage.postgres.url', 'string');
    if (!url) throw new UsageError(`config file ${file}: "storage.postgres" needs a url`);
    const ms = (key: string, least: number): number | undefined => {
      const text = typed<string>(settings[key], `storage.postgres.${key}`, 'string');
      if (text === undefined) return undefined;
      const ns = parseGoDuration(text);
      if (ns === undefined || ns < least * 1e6) throw new UsageError(`config file ${file}: "storage.postgres.${key}" must be a duration of at least ${least / 1000}s, such as "5s"`);
      return Math.ceil(ns / 1e6);
    };
    // The leader renews its lease every second: a shorter lease would be lost by a healthy leader.
    const timeouts = { idleInTransactionMs: ms('idle_in_transaction_timeout', 1000), statementMs: ms('statement_timeout', 1000), leaderLeaseMs: ms('leader_lease', 2000) };
    out.storage = { postgres: { url, ...timeouts } };
  }
  // Nomad's server block: how long nodes may stay silent, in Go durations.
  const server = block('server', SERVER_KNOWN);
  if (server) {
    const ms = (key: string): number | undefined => {
      const text = typed<string>(server[key], `server.${key}`, 'string');
      if (text === undefined) return undefined;
      const ns = parseGoDuration(text);
      if (ns === undefined || ns <= 0) throw new UsageError(`config file ${file}: "server.${key}" must be a positive duration such as "10s"`);
      return Math.ceil(ns / 1e6);
    };
    out.server = {
      minHeartbeatTtlMs: ms('min_heartbeat_ttl'),
      heartbeatGraceMs: ms('heartbeat_grace'),
      failoverHeartbeatTtlMs: ms('failover_heartbeat_ttl'),
      advertise: typed<string>(server.advertise, 'server.advertise', 'string'),
      enableEventBroker: typed<boolean>(server.enable_event_broker, 'server.enable_event_broker', 'boolean'),
      eventBufferSize: server.event_buffer_size as number | undefined,
    };
    const size = server.event_buffer_size;
    if (size !== undefined && (typeof size !== 'number' || !Number.isInteger(size) || size < 0)) throw new UsageError(`config file ${file}: "server.event_buffer_size" must be a whole number of 0 or more (0 turns the event stream off)`);
  }
  out.bind = str('bind_addr');
  const level = str('log_level');
  if (level !== undefined) {
    if (!LOG_LEVELS.includes(level.toLowerCase() as LogLevel)) throw new UsageError(`config file ${file}: "log_level" must be one of ${LOG_LEVELS.join(', ')}`);
    out.logLevel = level.toLowerCase() as LogLevel;
  }
  out.logJson = logJson(typed<boolean>(doc.log_json, 'log_json', 'boolean'), str('log_format'), file);
  const ports = single(doc.ports) as Record<string, unknown> | undefined;
  const port = doc.port ?? ports?.http;
  if (port !== undefined) {
    if (!Number.isInteger(port) || (port as number) < 0 || (port as number) > 65535) throw new UsageError(`config file ${file}: "port" must be a port number`);
    out.port = port as number;
  }
  return out;
}

/** Nomad's `log_json` and Vault's `log_format`; when both are given they must agree. */
function logJson(flag: boolean | undefined, format: string | undefined, file: string): boolean | undefined {
  if (format !== undefined && format !== 'json' && format !== 'standard') throw new UsageError(`config file ${file}: "log_format" must be "standard" or "json"`);
  const fromFormat = format === undefined ? undefined : format === 'json';
  if (flag !== undefined && fromFormat !== undefined && flag !== fromFormat) throw new UsageError(`config file ${file}: "log_json" and "log_format" disagree: keep one of them`);
  return flag ?? fromFormat;
}

/** The client's cgroup settings; the parent is one directory name, since it sits beneath the node's own cgroup. */
function clientCgroups(client: Record<string, unknown>, file: string): NonNullable<NonNullable<FileConfig['client']>['cgroups']> | undefined {
  const parent = single(client.cgroup_parent);
  const pids = single(client.pids_limit);
  const oversub = single(client.memory_oversubscription);
  if (parent === undefined && pids === undefined && oversub === undefined) return undefined;
  if (parent !== undefined && (typeof parent !== 'string' || !/^[A-Za-z0-9_.-]+$/.test(parent) || parent === '.' || parent === '..')) {
    throw new UsageError(`config file ${file}: "client.cgroup_parent" must be one directory name (letters, digits, "_", "-", "."), such as "svc"`);
  }
  if (pids !== undefined && (typeof pids !== 'number' || !Number.isInteger(pids) || pids < 0)) {
    throw new UsageError(`config file ${file}: "client.pids_limit" must be a whole number of processes (0 for no limit)`);
  }
  if (oversub !== undefined && typeof oversub !== 'boolean') throw new UsageError(`config file ${file}: "client.memory_oversubscription" must be a boolean`);
  return { parent: parent as string | undefined, pidsLimit: pids as number | undefined, memoryOversubscription: oversub as boolean | undefined };
}
