/**
 * Token roles as stored: table `token-roles`, keyed by the role's name as given (Vault's token roles are
 * case-sensitive). The Store holds them, so every server sharing a store (PostgreSQL) sees the same roles.
 * The deprecated period, explicit_max_ttl and bound_cidrs are kept as sent, only to be read back as Vault
 * does; the token_* values are the ones in force.
 */
import type { Store, WriteTx } from '../../storage/store.js';
import type { TOKEN_ROLE_TYPES } from './role-fields.js';

export const TOKEN_ROLES_TABLE = 'token-roles';

export type TokenRoleType = (typeof TOKEN_ROLE_TYPES)[number];

export interface TokenRoleEntry {
  name: string;
  allowed_policies: string[];
  disallowed_policies: string[];
  allowed_policies_glob: string[];
  disallowed_policies_glob: string[];
  orphan: boolean;
  renewable: boolean;
  path_suffix: string;
  /** null until first set, which a read shows, as Vault's does */
  allowed_entity_aliases: string[] | null;
  /** seconds */
  token_explicit_max_ttl: number;
  token_period: number;
  token_bound_cidrs: string[];
  token_no_default_policy: boolean;
  token_num_uses: number;
  token_type: TokenRoleType;
  explicit_max_ttl: number;
  period: number;
  bound_cidrs: string[];
}

/** Vault's framework.GenericNameRegex: a word character, or two with word characters, "-" and "." between. */
export const ROLE_NAME = /^\w(?:[\w.-]*\w)?$/;

export function readTokenRole(store: Store, name: string): TokenRoleEntry | undefined {
  return store.get<TokenRoleEntry>(TOKEN_ROLES_TABLE, name);
}

export function readTokenRoleInTx(tx: WriteTx, name: string): TokenRoleEntry | undefined {
  return tx.get<TokenRoleEntry>(TOKEN_ROLES_TABLE, name);
}

/** Role names in key order. */
export function listTokenRoles(store: Store): string[] {
  return store.keys(TOKEN_ROLES_TABLE);
}

/**
 * Writes the role `change` makes of the stored one (undefined when there is none), in one transaction:
 * a refused change (it throws) leaves the role as it was, and concurrent writers do not lose each other's fields.
 */
export async function updateTokenRole<T>(store: Store, name: string, change: (current: TokenRoleEntry | undefined) => { role: TokenRoleEntry; result: T }): Promise<T> {
  const { result } = await store.write((tx) => {
    const { role, result } = change(readTokenRoleInTx(tx, name));
    tx.put(TOKEN_ROLES_TABLE, name, role);
    return result;
  });
  return result;
}

export async function deleteTokenRole(store: Store, name: string): Promise<void> {
  await store.write((tx) => void tx.delete(TOKEN_ROLES_TABLE, name));
}
