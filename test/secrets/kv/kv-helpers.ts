/** What the KV tests share: a server in process with kv mounts, tokens with a policy, failures read as Vault reports them. */
import { expect } from 'vitest';
import { ApiError } from '../../../src/shared/errors.js';
import type { InProcessServer } from '../../support/in-process.js';

export async function apiError(p: Promise<unknown>): Promise<ApiError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ApiError);
  return err as ApiError;
}

export async function tokenWithPolicy(ts: InProcessServer, name: string, text: string): Promise<string> {
  await ts.client().secrets('PUT', `sys/policies/acl/${name}`, { body: { policy: text } });
  const { secret } = await ts.server.services.tokens.create({
    policies: [name],
    path: 'auth/token/create',
    mountAccessor: ts.server.services.mounts.get('auth/token/')!.accessor,
    orphan: true,
  });
  return secret;
}

export const MERGE_PATCH = { 'content-type': 'application/merge-patch+json' };

let mounted = 0;
/** A fresh kv mount, so each test starts from an empty engine. */
export async function freshMount(ts: InProcessServer, version: 1 | 2): Promise<string> {
  const path = `kv${version}-${++mounted}`;
  await ts.client().secrets('POST', `sys/mounts/${path}`, { body: { type: 'kv', options: { version: String(version) } } });
  return path;
}
