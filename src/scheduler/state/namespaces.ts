/** Scheduler namespaces. `default` always exists and cannot be deleted. */
import { NotFound, UserError } from '../../shared/errors.js';
import type { Store } from '../../storage/store.js';
import { JOBS_TABLE, NAMESPACES_TABLE } from './tables.js';

export { NAMESPACES_TABLE };

export interface Namespace {
  Name: string;
  Description: string;
  Meta: Record<string, string>;
  CreateIndex: number;
  ModifyIndex: number;
}

const NAME = /^[a-zA-Z0-9-]{1,128}$/;

export function getNamespace(store: Store, name: string): Namespace | undefined {
  if (name === 'default') return store.get<Namespace>(NAMESPACES_TABLE, name) ?? { Name: 'default', Description: 'Default shared namespace', Meta: {}, CreateIndex: 1, ModifyIndex: 1 };
  return store.get<Namespace>(NAMESPACES_TABLE, name);
}

export function listNamespaces(store: Store): Namespace[] {
  const stored = store.list<Namespace>(NAMESPACES_TABLE).map((e) => e.value);
  return stored.some((n) => n.Name === 'default') ? stored : [getNamespace(store, 'default')!, ...stored].sort((a, b) => a.Name.localeCompare(b.Name));
}

export async function upsertNamespace(store: Store, input: { Name: string; Description?: string; Meta?: Record<string, string> }): Promise<number> {
  if (!NAME.test(input.Name)) throw new UserError(`invalid namespace name "${input.Name}": use 1-128 letters, digits and '-'`);
  const { index } = await store.write((tx) => {
    const prev = tx.get<Namespace>(NAMESPACES_TABLE, input.Name);
    tx.put(NAMESPACES_TABLE, input.Name, {
      Name: input.Name,
      Description: input.Description ?? '',
      Meta: input.Meta ?? {},
      CreateIndex: prev?.CreateIndex ?? tx.index,
      ModifyIndex: tx.index,
    } satisfies Namespace);
  });
  return index;
}

/** Refused for `default` and for a namespace that still holds jobs (Nomad: they must be purged first). */
export async function deleteNamespace(store: Store, name: string): Promise<number> {
  if (name === 'default') throw new UserError('default namespace can not be deleted');
  const { index } = await store.write((tx) => {
    if (!tx.get(NAMESPACES_TABLE, name)) throw new NotFound(`namespace "${name}" not found`);
    const jobs = tx.list<{ Stop: boolean }>(JOBS_TABLE, `${name}\u0000`);
    if (jobs.length > 0) {
      const running = jobs.filter((j) => !j.value.Stop).length;
      throw new UserError(`namespace "${name}" has ${jobs.length} job(s) (${running} not stopped); purge them before deleting it`);
    }
    tx.delete(NAMESPACES_TABLE, name);
  });
  return index;
}
