/**
 * What the pipelines and the handlers ask of the policy store (src/server/services.ts holds one).
 * PolicyStore implements it on the Store.
 */
import type { Acl } from './acl.js';

export interface PolicyRecord {
  name: string;
  text: string;
  /** 0 for a built-in that was never written */
  createIndex: number;
  modifyIndex: number;
}

export interface PolicyService {
  /** The policy by name (case-insensitive), built-ins included; undefined when there is none. */
  get(name: string): PolicyRecord | undefined;
  /** Every policy name, `default` and `root` included, sorted. */
  list(): string[];
  /** Parses, then stores; a policy that does not parse stores nothing (400). Returns the stored record. */
  put(rawName: string, text: string): Promise<PolicyRecord>;
  /** Deleting a policy that does not exist is not an error (Vault). */
  delete(rawName: string): Promise<void>;
  /** The ACL for a token's policies plus the identity policies of its entity; unknown names are skipped. */
  aclFor(policyNames: string[]): Promise<Acl>;
}
