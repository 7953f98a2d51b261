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

/** Vault's names of these methods, which its clients and Terraform send to sys/auth (`vault auth enable aws`). */
export const AUTH_METHOD_TYPE_ALIASES: Readonly<Record<string, keyof AuthMethods>> = { aws: 'cloud' };

export function createAuthMethods(): AuthMethods {
  return { cloud: createCloudMethod() };
}

