/**
 * The file audit device (Vault's `file` audit device, at path `file`): every request of both APIs is
 * written to the log before it is served, and its answer before it is sent. As in Vault, a request the
 * log cannot take is refused (500 "audit log unavailable"): nothing happens unaudited, and an answer
 * that could not be logged is not given.
 */
import type { Logger } from '../../shared/log.js';
import type { Seal } from '../../storage/seal.js';
import type { Store } from '../../storage/store.js';
import type { TokenService } from '../../secrets/token/token-service.js';
import type { IdentityService } from '../../secrets/identity/identity-service.js';
import { sideError } from '../http/router.js';
import { tokenFromHeaders } from '../http/token-header.js';
import type { RawRequest, RawResponse } from '../http/types.js';
import type { AuditDevice } from '../services.js';
import { auditAuth, auditRequest, auditResponse, type AuditCaller, type AuditEntry } from './entry.js';
import { AuditFile } from './file-device.js';
import { AuditHasher } from './hasher.js';
import { auditHmacKey } from './hmac-key.js';

const AUDIT_UNAVAILABLE = 'audit log unavailable';

export interface AuditDeps {
  store: Store;
  seal: Seal;
  tokens: TokenService;
  identity: IdentityService;
  log: Logger;
}

export class AuditLog implements AuditDevice {
  readonly path = 'file';

  private constructor(
    private readonly file: AuditFile,
    private readonly hasher: AuditHasher,
    private readonly deps: AuditDeps,
  ) {}

  static async open(file: string, deps: AuditDeps): Promise<AuditLog> {
    const key = await auditHmacKey(deps.store, deps.seal);
    return new AuditLog(await AuditFile.open(file), new AuditHasher(key), deps);
  }

  hash(input: string): string {
    return this.hasher.hash(input);
  }

  /** Serves `raw` with `serve`, logging it before and its answer after; either write failing refuses it. */
  async record(raw: RawRequest, requestId: string, serve: () => Promise<RawResponse>): Promise<RawResponse> {
    // Vault does not audit its health endpoint either: load balancers poll it, and it must answer while the log is down.
    if (raw.method === 'GET' && raw.path === '/v1/sys/health') return serve();
    const auth = auditAuth(this.caller(raw), this.hasher);
    const request = auditRequest(raw, requestId, this.hasher);
    if (!(await this.append({ time: now(), type: 'request', auth, request, error: '' }))) return unavailable(raw);
    let answer: RawResponse;
    try {
      answer = await serve();
    } catch (err) {
      await this.append({ time: now(), type: 'response', auth, request, response: { status: 500 }, error: (err as Error)?.message ?? String(err) });
      throw err;
    }
    const { response, error } = auditResponse(raw, answer, this.hasher);
    if (!(await this.append({ time: now(), type: 'response', auth, request, response, error }))) return unavailable(raw);
    return answer;
  }

  close(): Promise<void> {
    return this.file.close();
  }

  /** Who is asking, read without side effects (no use counted, nothing revoked): the pipeline does that. */
  private caller(raw: RawRequest): AuditCaller {
    const secret = tokenFromHeaders(raw.headers);
    const token = secret ? this.deps.tokens.find(secret) : undefined;
    const identityPolicies = token?.entityId ? this.deps.identity.entityPolicies(token.entityId) : [];
    return { secret, token, identityPolicies };
  }

  private async append(entry: AuditEntry): Promise<boolean> {
    try {
      await this.file.append(JSON.stringify(entry));
      return true;
    } catch (err) {
      this.deps.log.error(`audit log ${this.file.file}: cannot write the ${entry.type} of request ${entry.request.id}: ${(err as Error).message}`);
      return false;
    }
  }
}

function unavailable(raw: RawRequest): RawResponse {
  return sideError(raw.path, 500, AUDIT_UNAVAILABLE);
}

const now = () => new Date().toISOString();
