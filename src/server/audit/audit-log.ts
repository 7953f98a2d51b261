/**
 * The audit devices (Vault's `file` audit device): every request of both APIs is written to each device's
 * log before it is served, and its answer before it is sent. As in Vault, a request that no device can
 * take is refused (500 "audit log unavailable"): nothing happens unaudited, and an answer that could not
 * be logged is not given. Devices come from the server's configuration (at path `file/`) and from
 * sys/audit, whose table in the store every server follows.
 */
import type { Logger } from '../../shared/log.js';
import { UserError } from '../../shared/errors.js';
import type { Seal } from '../../storage/seal.js';
import type { Store } from '../../storage/store.js';
import type { TokenService } from '../../secrets/token/token-service.js';
import type { IdentityService } from '../../secrets/identity/identity-service.js';
import { sideError } from '../../framework/http/router.js';
import { tokenFromHeaders } from '../../framework/http/token-header.js';
import type { RawRequest, RawResponse } from '../../framework/http/types.js';
import type { AuditDevices } from '../../secrets/context.js';
import { AUDIT_TABLE, normaliseAuditPath, type AuditDeviceEntry } from './audit-table.js';
import { auditAuth, auditRequest, auditResponse, isSecretsRequest, type AuditCaller, type AuditEntry } from './entry.js';
import { AuditFile } from './file-device.js';
import { AuditHasher } from './hasher.js';
import { auditHmacKey } from './hmac-key.js';
import { Counter } from '../../shared/metrics/registry.js';

/** Vault's audit failure counters: a device that could not write a request's or a response's line. */
const requestLogFailures = new Counter('vault.audit.log_request_failure', "Requests' audit lines a device could not write.").child();
const responseLogFailures = new Counter('vault.audit.log_response_failure', "Responses' audit lines a device could not write.").child();

const AUDIT_UNAVAILABLE = 'audit log unavailable';

/** The path of the device the server's configuration names. */
export const CONFIGURED_PATH = 'file/';

export interface AuditDeps {
  store: Store;
  seal: Seal;
  tokens: TokenService;
  identity: IdentityService;
  log: Logger;
  /** where the secrets engines are mounted: their paths are the secrets side's, audited as its requests */
  secretMounts: { hasMountUnder(segment: string): boolean };
}

interface OpenDevice {
  entry: AuditDeviceEntry;
  file: AuditFile;
  /** from the server's configuration: not in the store, not disabled through the API */
  configured: boolean;
}

export class AuditLog implements AuditDevices {
  private readonly open = new Map<string, OpenDevice>();
  /** paths opened by an enable that has not stored them yet: a sync meanwhile must not close them */
  private readonly enabling = new Set<string>();
  private hasher?: AuditHasher;
  /** the audit table's index the open devices follow */
  private syncedIndex = -1;
  private syncing: Promise<void> = Promise.resolve();
  /** syncs chained on `syncing` that have not finished */
  private syncsRunning = 0;

  private constructor(private readonly deps: AuditDeps) {}

  /**
   * The configured device and the stored ones, opened; one that cannot be opened stops the start, naming
   * its file, as Vault will not unseal with an audit device it cannot set up.
   */
  static async open(deps: AuditDeps, configuredFile?: string): Promise<AuditLog> {
    const log = new AuditLog(deps);
    try {
      if (configuredFile) await log.add({ path: CONFIGURED_PATH, type: 'file', description: '', options: { file_path: configuredFile }, local: false }, true);
      log.syncedIndex = deps.store.tableIndex(AUDIT_TABLE);
      for (const { value } of deps.store.list<AuditDeviceEntry>(AUDIT_TABLE)) if (!log.open.has(value.path)) await log.add(value, false);
    } catch (err) {
      await log.close();
      throw err;
    }
    return log;
  }

  list(): AuditDeviceEntry[] {
    return [...this.open.values()].map((d) => d.entry).sort((a, b) => a.path.localeCompare(b.path));
  }

  /** The HMAC every device writes for `input`; undefined while there is no device. */
  hash(input: string): string | undefined {
    return this.hasher?.hash(input);
  }

  async enable(entry: AuditDeviceEntry): Promise<void> {
    await this.sync();
    const path = normaliseAuditPath(entry.path);
    if (this.open.has(path) || this.deps.store.get(AUDIT_TABLE, path)) throw new UserError('path already in use');
    const device = { ...entry, path };
    // Opened first, as Vault's sanity check: a device whose file cannot be written is never stored.
    this.enabling.add(path);
    try {
      await this.add(device, false);
      await this.deps.store.write((tx) => {
        if (tx.get(AUDIT_TABLE, path)) throw new UserError('path already in use');
        tx.put(AUDIT_TABLE, path, device);
      });
    } catch (err) {
      await this.remove(path);
      throw err;
    } finally {
      this.enabling.delete(path);
    }
  }

  /** Disabling a path with no device is not an error (Vault). */
  async disable(rawPath: string): Promise<void> {
    await this.sync();
    const path = normaliseAuditPath(rawPath);
    if (this.open.get(path)?.configured) {
      throw new UserError(`the audit device at ${path} is the server's own (-audit-file, or audit { file } in the config file): remove it there`);
    }
    await this.deps.store.write((tx) => tx.delete(AUDIT_TABLE, path));
    await this.remove(path);
  }

  /** Serves `raw` with `serve`, logging it before and its answer after; a request no device takes is refused. */
  async record(raw: RawRequest, requestId: string, serve: () => Promise<RawResponse>): Promise<RawResponse> {
    // Vault does not audit its health endpoint either: load balancers poll it, and it must answer while the log is down.
    if ((raw.method === 'GET' || raw.method === 'HEAD') && raw.path === '/v1/sys/health') return serve();
    const syncing = this.sync();
    if (syncing) await syncing;
    const hasher = this.hasher;
    if (!hasher || this.open.size === 0) return serve();
    const auth = auditAuth(this.caller(raw), hasher);
    const secrets = isSecretsRequest(raw, (segment) => this.deps.secretMounts.hasMountUnder(segment));
    const request = auditRequest(raw, requestId, hasher, secrets);
    if (!(await this.append({ time: now(), type: 'request', auth, request, error: '' }))) return unavailable(raw);
    let answer: RawResponse;
    try {
      answer = await serve();
    } catch (err) {
      await this.append({ time: now(), type: 'response', auth, request, response: { status: 500 }, error: (err as Error)?.message ?? String(err) });
      throw err;
    }
    const { response, error } = auditResponse(answer, hasher, secrets);
    if (!(await this.append({ time: now(), type: 'response', auth, request, response, error }))) return unavailable(raw);
    return answer;
  }

  async close(): Promise<void> {
    await this.syncing;
    for (const path of [...this.open.keys()]) await this.remove(path);
  }

  private async add(entry: AuditDeviceEntry, configured: boolean): Promise<void> {
    const file = entry.options.file_path;
    if (!file) throw new UserError('file_path is required');
    let opened: AuditFile;
    try {
      opened = await AuditFile.open(file);
    } catch (err) {
      throw configured ? err : new UserError(`sanity check failed; ${(err as Error).message}`);
    }
    this.hasher ??= new AuditHasher(await auditHmacKey(this.deps.store, this.deps.seal));
    this.open.set(entry.path, { entry, file: opened, configured });
  }

  private async remove(path: string): Promise<void> {
    const device = this.open.get(path);
    if (!device) return;
    this.open.delete(path);
    await device.file.close();
  }

  /**
   * Follows the stored table: devices another server (or this one) enabled or disabled since the last
   * look. Undefined when there is nothing to wait for, which is every request's case but after a change.
   */
  private sync(): Promise<void> | undefined {
    if (this.deps.store.tableIndex(AUDIT_TABLE) === this.syncedIndex) return this.syncsRunning === 0 ? undefined : this.syncing;
    this.syncsRunning++;
    this.syncing = this.syncing.then(async () => {
      const index = this.deps.store.tableIndex(AUDIT_TABLE);
      if (index === this.syncedIndex) return;
      this.syncedIndex = index;
      const stored = new Map(this.deps.store.list<AuditDeviceEntry>(AUDIT_TABLE).map((e) => [e.key, e.value]));
      for (const [path, device] of this.open) if (!device.configured && !stored.has(path) && !this.enabling.has(path)) await this.remove(path);
      for (const [path, entry] of stored) {
        if (this.open.has(path)) continue;
        // Enabled by another server: a file this one cannot open is its operator's to fix, and the other devices still log.
        await this.add(entry, false).catch((err: Error) => this.deps.log.error(`audit device ${path}: ${err.message}`));
      }
    });
    const settled = () => void this.syncsRunning--;
    this.syncing.then(settled, settled);
    return this.syncing;
  }

  /** Who is asking, read without side effects (no use counted, nothing revoked): the pipeline does that. */
  private caller(raw: RawRequest): AuditCaller {
    const secret = tokenFromHeaders(raw.headers);
    const token = secret ? this.deps.tokens.find(secret) : undefined;
    const identityPolicies = token?.entityId ? this.deps.identity.entityPolicies(token.entityId) : [];
    return { secret, token, identityPolicies };
  }

  /** Writes the line to every device; true when at least one took it, as Vault requires of its devices. */
  private async append(entry: AuditEntry): Promise<boolean> {
    const line = JSON.stringify(entry);
    const written = await Promise.all(
      [...this.open.values()].map(async ({ entry: device, file }) => {
        try {
          await file.append(line);
          return true;
        } catch (err) {
          (entry.type === 'request' ? requestLogFailures : responseLogFailures).inc();
          this.deps.log.error(`audit device ${device.path} (${file.file}): cannot write the ${entry.type} of request ${entry.request.id}: ${(err as Error).message}`);
          return false;
        }
      }),
    );
    return written.includes(true);
  }
}

function unavailable(raw: RawRequest): RawResponse {
  return sideError(raw.path, 500, AUDIT_UNAVAILABLE);
}

const now = () => new Date().toISOString();
