/** The API path of an auth mount as `-path` names it, shared by `svc auth cloud` and completion. */
import { UsageError } from '../shared/errors.js';
import type { CommandContext } from './define.js';

/** `-path=cloud`, `-path=/auth/ci/`, `-path=ci` all name a mount; the API path starts with auth/<mount>/. */
export function mountPrefix(flags: CommandContext['flags']): string {
  const mount = String(flags.path ?? 'cloud')
    .trim()
    .replace(/^\/+|\/+$/g, '')
    .replace(/^auth\//, '');
  if (mount === '') throw new UsageError('-path must name the mount, such as -path=cloud');
  return `auth/${mount}/`;
}
