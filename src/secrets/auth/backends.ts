/**
 * Auth method types that can be mounted with `sys/auth/:path`, besides `token`. Each server builds its
 * own with createAuthMethods: what a method keeps (clients, caches, running tidies) belongs to the server
 * that built it, never to the process, so two servers in one process share nothing.
 */
import { createCloudMethod, type CloudMethod } from './cloud/backend.js';

export interface AuthMethods {
  cloud: CloudMethod;
}

export const AUTH_METHOD_TYPES: ReadonlyArray<keyof AuthMethods> = ['cloud'];

export function createAuthMethods(): AuthMethods {
  return { cloud: createCloudMethod() };
}

