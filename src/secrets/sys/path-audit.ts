/**
 * sys/audit, as Vault's: a read lists the audit devices, a write at sys/audit/<path> enables a file audit
 * device (its file is opened first, so one that cannot be written is refused), a delete disables one.
 * Devices enabled here are kept in the store and opened again at every start. As in Vault, all of it
 * needs `sudo`.
 */
import { InternalError, UserError } from '../../shared/errors.js';
import { definePath } from '../framework/path.js';
import type { SecretsRequest } from '../framework/request.js';
import type { AuditDevices } from '../context.js';
import { AUDIT_ENABLE_FIELDS } from './fields.js';

function devices(req: SecretsRequest): AuditDevices {
  // The server always builds them; a services object without them is a wiring mistake.
  if (!req.services.audit) throw new InternalError('the audit devices are not set up');
  return req.services.audit;
}

export const auditPaths = [
  definePath({
    pattern: 'audit',
    fields: {},
    sudo: true,
    synopsis: 'List the audit devices.',
    description: 'Answers every audit device keyed by its path, e.g. "file/": type, description, options (file_path) and local.',
    operations: {
      read: {
        summary: 'List the audit devices.',
        handler: async (req) => ({ data: Object.fromEntries(devices(req).list().map((d) => [d.path, { ...d }])) }),
      },
    },
  }),
  definePath({
    pattern: 'audit/*path',
    fields: AUDIT_ENABLE_FIELDS,
    sudo: true,
    synopsis: 'Enable or disable an audit device.',
    description:
      'A write enables a file audit device at the path: every request and answer is appended to options.file_path ' +
      '(created 0600), with secrets HMAC\'d as in the other devices. A delete disables it. The device the server\'s ' +
      'configuration names (-audit-file, audit { file }) is at "file/" and is changed only there.',
    operations: {
      update: {
        summary: 'Enable an audit device.',
        handler: async (req, data) => {
          const type = data.get<string>('type');
          if (type !== 'file') throw new UserError(`unknown audit device type "${type}": svc has the "file" audit device`);
          await devices(req).enable({
            path: data.get<string>('path'),
            type,
            description: data.get<string>('description'),
            options: data.get<Record<string, string>>('options'),
            local: data.get<boolean>('local'),
          });
        },
      },
      delete: {
        summary: 'Disable an audit device.',
        handler: async (req, data) => {
          await devices(req).disable(data.get<string>('path'));
        },
      },
    },
  }),
];
