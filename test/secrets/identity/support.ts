/** Requests the identity tests make through the in-process server, with the answer checked as they go. */
import { expect } from 'vitest';
import type { InProcessAnswer, InProcessServer } from '../../support/in-process.js';

export type Body = Record<string, unknown>;

export interface IdentityClient {
  /** `path` under /v1/; the answer whatever its status */
  call(method: string, path: string, body?: Body, token?: string): Promise<InProcessAnswer>;
  /** the `data` of a 200 answer, or undefined for a 204; anything else fails the test */
  ok(method: string, path: string, body?: Body, token?: string): Promise<Body | undefined>;
  /** the `errors` of an answer with this status */
  fails(status: number, method: string, path: string, body?: Body, token?: string): Promise<string[]>;
}

export function identityClient(s: InProcessServer): IdentityClient {
  const call = (method: string, path: string, body?: Body, token?: string) => s.request(method, `/v1/${path}`, { body, token });
  return {
    call,
    async ok(method, path, body, token) {
      const res = await call(method, path, body, token);
      expect([200, 204], `${method} ${path}: ${JSON.stringify(res.body)}`).toContain(res.status);
      return res.status === 204 ? undefined : (res.body as { data: Body }).data;
    },
    async fails(status, method, path, body, token) {
      const res = await call(method, path, body, token);
      expect(res.status, `${method} ${path}: ${JSON.stringify(res.body)}`).toBe(status);
      return (res.body as { errors: string[] }).errors;
    },
  };
}

/** Mounts a cloud auth method at auth/<path> and answers its accessor. */
export async function authMount(s: InProcessServer, path: string): Promise<string> {
  return (await s.server.services.mounts.enable(path, 'cloud')).accessor;
}
