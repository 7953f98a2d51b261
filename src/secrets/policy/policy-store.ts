/**
 * ACL policies as stored: name → text. The built-ins are not rows: `root` has no text and cannot be
 * written, and `default` answers DEFAULT_POLICY_TEXT until someone overwrites it (as Vault allows).
 *
 * Parsed policies are cached by name and the row's modifyIndex. Several server processes may share one
 * store, so the cache never trusts itself: every lookup reads the row (a cheap sync read) and reparses
 * only when its modifyIndex moved, which also covers changes made by another process.
 */
import { InternalError, UserError } from '../../shared/errors.js';
import { LruCache } from '../../shared/lru-cache.js';
import type { Store } from '../../storage/store.js';
import { Acl } from './acl.js';
import {
  DEFAULT_POLICY,
  DEFAULT_POLICY_NAME,
  DEFAULT_POLICY_TEXT,
  ROOT_POLICY,
  ROOT_POLICY_NAME,
  assertPolicyDeletable,
  assertPolicyWritable,
} from './builtin.js';
import { parsePolicy, validatePolicyName, type Policy } from './policy.js';
import type { PolicyRecord, PolicyService } from './policy-service.js';

export const POLICIES_TABLE = 'policies';

// Enough for every policy a normal deployment has; past it the oldest entries are dropped and reparsed on use.
const CACHE_LIMIT = 512;

export class PolicyStore implements PolicyService {
  private readonly parsed = new LruCache<string, { modifyIndex: number; policy: Policy }>(CACHE_LIMIT);

  constructor(private readonly store: Store) {}

  /** The policy by name (case-insensitive), built-ins included; undefined when there is none. */
  get(name: string): PolicyRecord | undefined {
    const key = name.trim().toLowerCase();
    if (key === ROOT_POLICY_NAME) return { name: ROOT_POLICY_NAME, text: '', createIndex: 0, modifyIndex: 0 };
    const stored = this.store.get<PolicyRecord>(POLICIES_TABLE, key);
    if (stored) return stored;
    if (key === DEFAULT_POLICY_NAME) return { name: DEFAULT_POLICY_NAME, text: DEFAULT_POLICY_TEXT, createIndex: 0, modifyIndex: 0 };
    return undefined;
  }

  /** Every policy name, `default` and `root` included, sorted. */
  list(): string[] {
    const names = new Set([DEFAULT_POLICY_NAME, ROOT_POLICY_NAME]);
    for (const { key } of this.store.list<PolicyRecord>(POLICIES_TABLE)) names.add(key);
    return [...names].sort();
  }

  /**
   * Parses before writing, so a policy that does not parse stores nothing and the caller gets the
   * parser's 400. Returns the stored record.
   */
  async put(rawName: string, text: string): Promise<PolicyRecord> {
    const name = validatePolicyName(rawName);
    assertPolicyWritable(name);
    const policy = await parsePolicy(name, text);
    const { result } = await this.store.write((tx) => {
      const prev = tx.get<PolicyRecord>(POLICIES_TABLE, name);
      const record: PolicyRecord = { name, text, createIndex: prev?.createIndex ?? tx.index, modifyIndex: tx.index };
      tx.put(POLICIES_TABLE, name, record);
      return record;
    });
    this.remember(name, result.modifyIndex, policy);
    return result;
  }

  /** Deleting a policy that does not exist is not an error (Vault). */
  async delete(rawName: string): Promise<void> {
    const name = validatePolicyName(rawName);
    assertPolicyDeletable(name);
    await this.store.write((tx) => tx.delete(POLICIES_TABLE, name));
    this.parsed.delete(name);
  }

  /** Unknown names are skipped, as Vault does: a token may outlive a policy it names. */
  async aclFor(policyNames: string[]): Promise<Acl> {
    const policies: Policy[] = [];
    for (const raw of new Set(policyNames.map((n) => n.trim().toLowerCase()))) {
      const policy = await this.load(raw);
      if (policy) policies.push(policy);
    }
    return Acl.fromPolicies(policies);
  }

  private async load(name: string): Promise<Policy | undefined> {
    if (name === ROOT_POLICY_NAME) return ROOT_POLICY;
    const stored = this.store.get<PolicyRecord>(POLICIES_TABLE, name);
    if (!stored) {
      this.parsed.delete(name);
      return name === DEFAULT_POLICY_NAME ? DEFAULT_POLICY : undefined;
    }
    const cached = this.parsed.get(name);
    if (cached && cached.modifyIndex === stored.modifyIndex) return cached.policy;
    let policy: Policy;
    try {
      policy = await parsePolicy(stored.name, stored.text);
    } catch (err) {
      // Stored text was valid when written; failing loudly beats silently dropping a policy's rules.
      const why = err instanceof UserError ? err.message : String(err);
      throw new InternalError(`stored policy "${name}" no longer parses: ${why}`);
    }
    this.remember(name, stored.modifyIndex, policy);
    return policy;
  }

  private remember(name: string, modifyIndex: number, policy: Policy): void {
    this.parsed.set(name, { modifyIndex, policy });
  }
}
