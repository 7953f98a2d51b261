/**
 * The secrets engine mounts, as Vault's mount table lists them at sys/mounts: the engines built in at
 * fixed paths, `sys/` and `identity/`, created once per state so their accessors and UUIDs stay the same
 * across restarts and servers, and the engines mounted at sys/mounts/<path> (kv, versions 1 and 2).
 *
 * An engine keeps its records in tables of its own, keyed by the mount's UUID, so moving a mount
 * (sys/remount) rewrites only its entry here, and disabling it removes its entry and every record in one
 * write: no request can find the mount gone and its data still there, or the reverse.
 */
import { UserError } from '../../shared/errors.js';
import { shortHex, uuid } from '../../shared/ids.js';
import type { Store, WriteTx } from '../../storage/store.js';
import type { MountBase } from './mount-service.js';

export const SECRET_MOUNTS_TABLE = 'secret_mounts';
/** sys/remount's record of each move, by its migration id (sys/remount/status) */
export const SECRET_MOUNT_MOVES_TABLE = 'secret_mount_moves';

export interface MountMove {
  migrationId: string;
  from: string;
  to: string;
  /** when it was done, RFC 3339 */
  time: string;
}

/**
 * A secrets engine's config. Besides the TTLs, Vault's settings are kept and answered as given (each unset
 * until it is, as Vault answers it only then); listingVisibility "unauth" lists the mount to callers without
 * a token at sys/internal/ui/mounts. The engines take no request headers and set none of their own, so the
 * header lists have nothing to act on, nor the audit keys on svc's audit log, which HMACs every value.
 */
export interface SecretMountConfig {
  defaultLeaseTtl: number;
  maxLeaseTtl: number;
  forceNoCache: boolean;
  auditNonHmacRequestKeys?: string[];
  auditNonHmacResponseKeys?: string[];
  /** "unauth" or "hidden"; unset for the default */
  listingVisibility?: string;
  passthroughRequestHeaders?: string[];
  allowedResponseHeaders?: string[];
}

export interface SecretMountEntry extends MountBase {
  config: SecretMountConfig;
}

/** The built-in engines, with Vault's types and descriptions for them. */
export const BUILTIN_SECRET_MOUNTS: ReadonlyArray<Pick<SecretMountEntry, 'path' | 'type' | 'description'>> = [
  { path: 'identity/', type: 'identity', description: 'identity store' },
  { path: 'sys/', type: 'system', description: 'system endpoints used for control, policy and debugging' },
];

/**
 * Vault's protected paths: no engine may be mounted at, inside or around them (auth/ is the auth
 * methods' table, cubbyhole/ and audit/ are Vault's and kept free for clients that expect them).
 */
const RESERVED_PATHS = ['audit/', 'auth/', 'cubbyhole/', 'identity/', 'sys/'];

const PATH_SEGMENT = /^[A-Za-z0-9_.-]+$/;

/** `kv`, `/kv/` and `kv/` all name the mount at kv/. */
export function normaliseSecretPath(input: string): string {
  const p = input.trim().replace(/^\/+|\/+$/g, '');
  if (p === '' || !p.split('/').every((s) => PATH_SEGMENT.test(s) && s !== '.' && s !== '..')) {
    throw new UserError(`invalid mount path "${input}": use letters, digits, '-', '_' and '.' (not "." or ".." alone), separated by '/'`);
  }
  return `${p}/`;
}

/** What an engine type tells the table about the records it keeps. */
export interface EngineStorage {
  /** tables whose keys begin with the mount's UUID and '/' */
  tables: readonly string[];
  /** Checks (and carries out, inside the tune's write) a change of the mount's options; throws to refuse. */
  optionsChanged?(tx: WriteTx, before: SecretMountEntry, after: SecretMountEntry): string[];
  /** The options a new mount of the type is recorded with, from those asked for. */
  options?(asked: Record<string, string> | null): Record<string, string> | null;
}

/** What sys/mounts' enable takes besides the path and the type (Vault's names, our spelling). */
export interface SecretMountRequest {
  description?: string;
  config?: Partial<SecretMountEntry['config']>;
  options?: Record<string, string> | null;
  local?: boolean;
  sealWrap?: boolean;
  externalEntropyAccess?: boolean;
}

export interface SecretMountService {
  /** in path order */
  list(): readonly SecretMountEntry[];
  /** `path` with its trailing slash */
  get(path: string): SecretMountEntry | undefined;
  /** The mounted engine that serves a request path (longest prefix), built-in ones aside. */
  route(fullPath: string): SecretMountEntry | undefined;
  /** Whether an engine is mounted below /v1/<segment>/ (kv at secret/): those paths are the secrets side's. */
  hasMountUnder(segment: string): boolean;
  enable(rawPath: string, type: string, request?: SecretMountRequest): Promise<SecretMountEntry>;
  /** Removes the engine and all its records in one write; a path with no engine is not an error (Vault). */
  disable(rawPath: string): Promise<void>;
  /** Changes a mount inside one write; answers the new entry and the engine's warnings. */
  tune(rawPath: string, change: (entry: SecretMountEntry) => SecretMountEntry): Promise<{ entry: SecretMountEntry; warnings: string[] }>;
  /** Moves an engine, its records with it, and records the move under `migrationId`, in one write. */
  remount(rawFrom: string, rawTo: string, migrationId: string): Promise<MountMove>;
}

/** Vault's type names for kv version 2: recorded as `kv` with the option that says so. */
const TYPE_ALIASES: Readonly<Record<string, { type: string; options: Record<string, string> }>> = {
  'kv-v2': { type: 'kv', options: { version: '2' } },
};

const isBuiltin = (path: string) => BUILTIN_SECRET_MOUNTS.some((m) => m.path === path);

export class SecretMountTable implements SecretMountService {
  /** Every request to an engine is routed through the table: read once per change of it. */
  private cached?: { index: number; mounts: readonly SecretMountEntry[] };

  constructor(
    private readonly store: Store,
    /** the engine types this server can mount */
    private readonly engines: Readonly<Record<string, EngineStorage>> = {},
    /** the first path segments the scheduler's API serves at /v1/<segment>: no engine may be mounted there */
    private readonly schedulerSegments: ReadonlySet<string> = new Set(),
  ) {}

  private checkNotScheduler(path: string): void {
    const first = path.split('/')[0];
    if (this.schedulerSegments.has(first)) throw new UserError(`cannot mount at "${path}": /v1/${first}/ is the scheduler API's`);
  }

  /** Creates the built-in entries a store does not have yet (another server may be doing the same). */
  async ensureBuiltins(): Promise<void> {
    if (BUILTIN_SECRET_MOUNTS.every((m) => this.get(m.path))) return;
    await this.store.write((tx) => {
      for (const m of BUILTIN_SECRET_MOUNTS) {
        if (tx.get(SECRET_MOUNTS_TABLE, m.path)) continue;
        tx.put(SECRET_MOUNTS_TABLE, m.path, newEntry(m.path, m.type, { description: m.description }));
      }
    });
  }

  /** Mounts an engine unless one is at the path already (-dev's secret/ on a kept data dir). */
  async ensure(path: string, type: string, request: SecretMountRequest): Promise<SecretMountEntry> {
    return this.get(path) ?? this.enable(path, type, request);
  }

  list(): readonly SecretMountEntry[] {
    const index = this.store.tableIndex(SECRET_MOUNTS_TABLE);
    if (this.cached?.index !== index) {
      const mounts = this.store.list<SecretMountEntry>(SECRET_MOUNTS_TABLE).map((e) => Object.freeze(e.value));
      this.cached = { index, mounts };
    }
    return this.cached.mounts;
  }

  get(path: string): SecretMountEntry | undefined {
    return this.store.get<SecretMountEntry>(SECRET_MOUNTS_TABLE, path);
  }

  hasMountUnder(segment: string): boolean {
    return this.list().some((m) => m.path.startsWith(`${segment}/`));
  }

  route(fullPath: string): SecretMountEntry | undefined {
    const withSlash = fullPath.endsWith('/') ? fullPath : `${fullPath}/`;
    let best: SecretMountEntry | undefined;
    for (const m of this.list()) {
      if (isBuiltin(m.path) || !withSlash.startsWith(m.path)) continue;
      if (!best || m.path.length > best.path.length) best = m;
    }
    return best;
  }

  async enable(rawPath: string, askedType: string, request: SecretMountRequest = {}): Promise<SecretMountEntry> {
    const path = normaliseSecretPath(rawPath);
    const alias = Object.hasOwn(TYPE_ALIASES, askedType) ? TYPE_ALIASES[askedType] : undefined;
    const type = alias?.type ?? askedType;
    const engine = Object.hasOwn(this.engines, type) ? this.engines[type] : undefined;
    // Vault's message: every engine type is a plugin there.
    if (!engine) throw new UserError(`plugin not found in the catalog: ${askedType}`);
    checkNotReserved(path);
    this.checkNotScheduler(path);
    const asked = alias ? { ...(request.options ?? {}), ...alias.options } : (request.options ?? null);
    const entry = newEntry(path, type, { ...request, options: engine.options ? engine.options(asked) : asked });
    await this.store.write((tx) => {
      checkFree(tx, path);
      tx.put(SECRET_MOUNTS_TABLE, path, entry);
    });
    return entry;
  }

  async disable(rawPath: string): Promise<void> {
    const path = normaliseSecretPath(rawPath);
    if (isBuiltin(path) || RESERVED_PATHS.includes(path)) throw new UserError(`cannot unmount "${path}"`);
    await this.store.write((tx) => {
      const entry = tx.get<SecretMountEntry>(SECRET_MOUNTS_TABLE, path);
      if (!entry) return;
      tx.delete(SECRET_MOUNTS_TABLE, path);
      for (const table of this.engines[entry.type]?.tables ?? []) {
        for (const key of tx.keys(table, `${entry.uuid}/`)) tx.delete(table, key);
      }
    });
  }

  async tune(rawPath: string, change: (entry: SecretMountEntry) => SecretMountEntry): Promise<{ entry: SecretMountEntry; warnings: string[] }> {
    const path = normaliseSecretPath(rawPath);
    const { result } = await this.store.write((tx) => {
      const entry = tx.get<SecretMountEntry>(SECRET_MOUNTS_TABLE, path);
      // Vault's message for a tune of a path with no mount.
      if (!entry) throw new UserError(`cannot fetch mount entry on "${path}"`);
      const updated: SecretMountEntry = { ...change(entry), path: entry.path, type: entry.type, accessor: entry.accessor, uuid: entry.uuid };
      const optionsMoved = JSON.stringify(entry.options ?? {}) !== JSON.stringify(updated.options ?? {});
      const engine = this.engines[entry.type];
      const warnings = optionsMoved && engine?.optionsChanged ? engine.optionsChanged(tx, entry, updated) : [];
      tx.put(SECRET_MOUNTS_TABLE, path, updated);
      return { entry: updated, warnings };
    });
    return result;
  }

  async remount(rawFrom: string, rawTo: string, migrationId: string): Promise<MountMove> {
    const from = normaliseSecretPath(rawFrom);
    const to = normaliseSecretPath(rawTo);
    if (isBuiltin(from) || RESERVED_PATHS.some((r) => from.startsWith(r))) throw new UserError(`cannot remount "${from}"`);
    checkNotReserved(to);
    this.checkNotScheduler(to);
    const { result } = await this.store.write((tx) => {
      const entry = tx.get<SecretMountEntry>(SECRET_MOUNTS_TABLE, from);
      if (!entry) throw new UserError(`no matching mount at "${from}"`);
      tx.delete(SECRET_MOUNTS_TABLE, from);
      checkFree(tx, to);
      // The records are keyed by the UUID, which stays: only the entry moves.
      tx.put(SECRET_MOUNTS_TABLE, to, { ...entry, path: to });
      const move: MountMove = { migrationId, from, to, time: new Date().toISOString() };
      tx.put(SECRET_MOUNT_MOVES_TABLE, migrationId, move);
      return move;
    });
    return result;
  }
}

function newEntry(path: string, type: string, request: SecretMountRequest): SecretMountEntry {
  return {
    path,
    type,
    description: request.description ?? '',
    accessor: `${type}_${shortHex()}`,
    uuid: uuid(),
    local: request.local ?? false,
    sealWrap: request.sealWrap ?? false,
    externalEntropyAccess: request.externalEntropyAccess ?? false,
    config: { ...request.config, defaultLeaseTtl: request.config?.defaultLeaseTtl ?? 0, maxLeaseTtl: request.config?.maxLeaseTtl ?? 0, forceNoCache: request.config?.forceNoCache ?? false },
    options: request.options ?? null,
  };
}

function checkNotReserved(path: string): void {
  for (const reserved of RESERVED_PATHS) {
    if (path.startsWith(reserved) || reserved.startsWith(path)) throw new UserError(`cannot mount at "${path}": ${reserved} is reserved`);
  }
}

/** Vault's rule: no engine at the path, nor one the path would be inside of or around. */
function checkFree(tx: WriteTx, path: string): void {
  for (const { value } of tx.list<SecretMountEntry>(SECRET_MOUNTS_TABLE)) {
    if (value.path === path) throw new UserError(`path is already in use at ${path}`);
    if (path.startsWith(value.path) || value.path.startsWith(path)) throw new UserError(`path is already in use at ${value.path}`);
  }
}
