/**
 * What the pipelines and the handlers ask of the auth mount table (src/server/services.ts holds one).
 * MountTable implements it on the Store.
 */
/** What every mount has, an auth method's or a secrets engine's (Vault's MountEntry). */
export interface MountBase {
  /** full path with trailing slash: auth/token/, auth/cloud/, sys/ */
  path: string;
  type: string;
  description: string;
  accessor: string;
  uuid: string;
  /** Vault's `local`: not replicated to other clusters; stored and answered */
  local: boolean;
  sealWrap: boolean;
  /** unset on mounts stored before it was kept */
  externalEntropyAccess?: boolean;
  options: Record<string, string> | null;
}

export interface MountEntry extends MountBase {
  /** listingVisibility: Vault's listing_visibility, "" (the default), "unauth" or "hidden" */
  config: { defaultLeaseTtl: number; maxLeaseTtl: number; tokenType: string; listingVisibility?: string };
}

/** What sys/auth's enable takes besides the type, the description and the config (Vault's names). */
export interface MountFlags {
  local?: boolean;
  sealWrap?: boolean;
  externalEntropyAccess?: boolean;
  options?: Record<string, string> | null;
}

export interface MountService {
  list(): readonly MountEntry[];
  get(path: string): MountEntry | undefined;
  byAccessor(accessor: string): MountEntry | undefined;
  /** The auth mount that serves a request path (longest prefix), or undefined. */
  route(fullPath: string): MountEntry | undefined;
  /** Mounts an auth method of a known type at `rawPath` (normalised to auth/<path>/). */
  enable(rawPath: string, type: string, description?: string, config?: Partial<MountEntry['config']>, flags?: MountFlags): Promise<MountEntry>;
  /** Changes a mount: `change` gets the stored entry and answers the new one, or throws to refuse. */
  tune(rawPath: string, change: (entry: MountEntry) => MountEntry): Promise<MountEntry>;
  /** Disables a mount: its tokens are revoked and its aliases removed. Disabling a missing mount is not an error (Vault). */
  disable(rawPath: string): Promise<void>;
}
