/** Checks that entities and groups share: the policies they may grant and the mounts aliases may name. */
import { UserError } from '../../shared/errors.js';
import type { WriteTx } from '../../storage/store.js';
import { MOUNTS_TABLE } from '../mounts/mount-table.js';
import type { MountEntry } from '../mounts/mount-service.js';

export function sameMap(a: Record<string, string>, b: Record<string, string>): boolean {
  const ak = Object.keys(a);
  return ak.length === Object.keys(b).length && ak.every((k) => Object.hasOwn(b, k) && b[k] === a[k]);
}

export function cleanPolicies(policies: string[]): string[] {
  const cleaned = [...new Set(policies.map((p) => p.trim()).filter((p) => p !== ''))];
  // An entity or group is a way to grant policies to tokens its caller did not create; granting root
  // that way would make anyone allowed to write identities a root (Vault refuses it with the same message).
  if (cleaned.some((p) => p.toLowerCase() === 'root')) throw new UserError('policies cannot contain root');
  return cleaned;
}

/** Root never comes through identity, even from records written before it was refused. */
export function withoutRoot(policies: string[]): string[] {
  return policies.filter((p) => p.toLowerCase() !== 'root');
}

export function mountByAccessor(tx: WriteTx, accessor: string): MountEntry | undefined {
  return tx.list<MountEntry>(MOUNTS_TABLE).find((m) => m.value.accessor === accessor)?.value;
}
