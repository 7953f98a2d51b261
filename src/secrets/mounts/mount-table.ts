/**
 * Auth mounts. The `token` mount always exists; other auth methods are enabled at any path under
 * `auth/`. Each mount has a unique accessor (`auth_<type>_<8 hex>`) that aliases and tokens refer to.
 */
import { UserError } from '../../shared/errors.js';
import { shortHex, uuid } from '../../shared/ids.js';
import type { Store } from '../../storage/store.js';
import type { MountEntry, MountFlags, MountService } from './mount-service.js';

export const MOUNTS_TABLE = 'mounts';

export type DisableHook = (entry: MountEntry) => Promise<unknown>;

const PATH_SEGMENT = /^[A-Za-z0-9_.-]+$/;

/** `cloud` → `auth/cloud/`; also accepts `auth/cloud` and `cloud/`. */
export function normaliseAuthPath(input: string): string {
  let p = input.trim().replace(/^\/+|\/+$/g, '');
  if (p.startsWith('auth/')) p = p.slice(5);
  if (p === '' || !p.split('/').every((s) => PATH_SEGMENT.test(s) && s !== '.' && s !== '..')) {
    throw new UserError(`invalid mount path "${input}": use letters, digits, '-', '_' and '.' (not "." or ".." alone), separated by '/'`);
  }
  return `auth/${p}/`;
}

export class MountTable implements MountService {
  private readonly disableHooks: DisableHook[] = [];
  /**
   * Every request is routed through the table, so it is read once per change of the mounts table: the
   * store's own index of that table says when (a change by another server process included).
   */
  private cached?: { index: number; mounts: readonly MountEntry[] };

  constructor(
    private readonly store: Store,
    /** auth method types this server can mount */
    readonly knownTypes: readonly string[],
    /** other names a type is enabled under (Vault's); the mount is recorded, and read, under ours */
    private readonly typeAliases: Readonly<Record<string, string>> = {},
  ) {}

  /** Creates the token mount on a new store (and any mount the caller asks for, such as auth/cloud in -dev). */
  async ensure(path: string, type: string, description: string): Promise<MountEntry> {
    const existing = this.get(path);
    if (existing) return existing;
    return this.enable(path, type, description);
  }

  list(): readonly MountEntry[] {
    const index = this.store.tableIndex(MOUNTS_TABLE);
    if (this.cached?.index !== index) {
      const mounts = this.store.list<MountEntry>(MOUNTS_TABLE).map((e) => Object.freeze({ ...e.value, config: Object.freeze({ ...e.value.config }) }));
      this.cached = { index, mounts };
    }
    return this.cached.mounts;
  }

  get(path: string): MountEntry | undefined {
    return this.store.get<MountEntry>(MOUNTS_TABLE, path);
  }

  byAccessor(accessor: string): MountEntry | undefined {
    return this.list().find((m) => m.accessor === accessor);
  }

  /** The auth mount that serves a request path (longest prefix), or undefined. */
  route(fullPath: string): MountEntry | undefined {
    const withSlash = fullPath.endsWith('/') ? fullPath : `${fullPath}/`;
    let best: MountEntry | undefined;
    for (const m of this.list()) {
      if (withSlash.startsWith(m.path) && (!best || m.path.length > best.path.length)) best = m;
    }
    return best;
  }

  async enable(rawPath: string, askedType: string, description = '', config: Partial<MountEntry['config']> = {}, flags: MountFlags = {}): Promise<MountEntry> {
    const path = normaliseAuthPath(rawPath);
    const type = Object.hasOwn(this.typeAliases, askedType) ? this.typeAliases[askedType] : askedType;
    if (!this.knownTypes.includes(type)) {
      throw new UserError(`unknown auth method type "${type}": known types are ${this.knownTypes.join(', ')}`);
    }
    const entry: MountEntry = {
      path,
      type,
      description,
      accessor: `auth_${type}_${shortHex()}`,
      uuid: uuid(),
      local: flags.local ?? false,
      sealWrap: flags.sealWrap ?? false,
      externalEntropyAccess: flags.externalEntropyAccess ?? false,
      config: { defaultLeaseTtl: config.defaultLeaseTtl ?? 0, maxLeaseTtl: config.maxLeaseTtl ?? 0, tokenType: config.tokenType ?? 'default-service' },
      options: flags.options ?? null,
    };
    await this.store.write((tx) => {
      for (const { value } of tx.list<MountEntry>(MOUNTS_TABLE)) {
        if (value.path === path) throw new UserError(`path is already in use at ${path}`);
        if (path.startsWith(value.path) || value.path.startsWith(path)) {
          throw new UserError(`path "${path}" conflicts with the existing mount at ${value.path}`);
        }
      }
      tx.put(MOUNTS_TABLE, path, entry);
    });
    return entry;
  }

  /**
   * Changes a mount (sys/auth/<path>/tune): `change` gets the stored entry and answers the new one, or
   * throws to refuse; it runs inside the write, so two tunes cannot undo each other's checks.
   */
  async tune(rawPath: string, change: (entry: MountEntry) => MountEntry): Promise<MountEntry> {
    const path = normaliseAuthPath(rawPath);
    let updated: MountEntry | undefined;
    await this.store.write((tx) => {
      const entry = tx.get<MountEntry>(MOUNTS_TABLE, path);
      // Vault's message for a tune of a path with no mount.
      if (!entry) throw new UserError(`cannot fetch mount entry on "${path}"`);
      updated = { ...change(entry), path: entry.path, type: entry.type, accessor: entry.accessor, uuid: entry.uuid };
      tx.put(MOUNTS_TABLE, path, updated);
    });
    return updated!;
  }

  onDisable(hook: DisableHook): void {
    this.disableHooks.push(hook);
  }

  /** Disables a mount: its tokens are revoked and its aliases removed. Disabling a missing mount is not an error (Vault). */
  async disable(rawPath: string): Promise<void> {
    const path = normaliseAuthPath(rawPath);
    if (path === 'auth/token/') throw new UserError('the token auth method cannot be disabled');
    const entry = this.get(path);
    if (!entry) return;
    // The mount goes first, so new requests can no longer reach it while the hooks clean up after it.
    await this.store.write((tx) => tx.delete(MOUNTS_TABLE, path));
    for (const hook of this.disableHooks) await hook(entry);
  }
}
