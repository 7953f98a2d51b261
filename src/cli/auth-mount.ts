/** An auth mount as the user names it, shared by `svc auth`, `svc login`, `svc auth cloud` and completion. */
import { UsageError } from '../shared/errors.js';
import type { CommandContext } from './define.js';

/** `cloud`, `/auth/ci/` and `ci/` name the mounts cloud and ci: the path relative to auth/, without slashes; '' for none. */
export function authMountName(named: string): string {
  return named
    .trim()
    .replace(/^\/+|\/+$/g, '')
    .replace(/^auth\//, '');
}

/** The API path prefix of the mount `-path` names (cloud by default): auth/<mount>/. */
export function mountPrefix(flags: CommandContext['flags']): string {
  const mount = authMountName(String(flags.path ?? 'cloud'));
  if (mount === '') throw new UsageError('-path must name the mount, such as -path=cloud');
  return `auth/${mount}/`;
}
