/**
 * The audit devices enabled through sys/audit, kept in the store so they are opened again at every start
 * and by every server sharing the state. A device named by the server's own configuration (-audit-file,
 * audit { file }) is not stored: the configuration brings it.
 */
import { UserError } from '../../shared/errors.js';

export const AUDIT_TABLE = 'audit_devices';

import type { AuditDeviceInfo } from '../../secrets/context.js';

/** An audit device as the table holds it: as sys/audit lists it. */
export type AuditDeviceEntry = AuditDeviceInfo;

const PATH_SEGMENT = /^[A-Za-z0-9_.-]+$/;

/** `file` → `file/`, as Vault keys its audit table. */
export function normaliseAuditPath(input: string): string {
  const p = input.trim().replace(/^\/+|\/+$/g, '');
  if (p === '' || !p.split('/').every((s) => PATH_SEGMENT.test(s) && s !== '.' && s !== '..')) {
    throw new UserError(`invalid audit device path "${input}": use letters, digits, '-', '_' and '.' (not "." or ".." alone), separated by '/'`);
  }
  return `${p}/`;
}
