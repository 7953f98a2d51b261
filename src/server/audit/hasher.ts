/**
 * The audit log's HMAC, as Vault's audit devices write it: `hmac-sha256:<hex>` of a string under the
 * server's audit key, so a known value can be found in the log (sys/audit-hash) but the log alone
 * reveals none.
 */
import crypto from 'node:crypto';

export class AuditHasher {
  constructor(private readonly key: Buffer) {}

  hash(value: string): string {
    return `hmac-sha256:${crypto.createHmac('sha256', this.key).update(value, 'utf8').digest('hex')}`;
  }

  /** A copy of a JSON value with every string in it hashed, at any depth; keys, numbers and booleans stay. */
  values(value: unknown): unknown {
    if (typeof value === 'string') return this.hash(value);
    if (Array.isArray(value)) return value.map((v) => this.values(v));
    if (value !== null && typeof value === 'object') {
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(value)) out[k] = this.values(v);
      return out;
    }
    return value;
  }
}
