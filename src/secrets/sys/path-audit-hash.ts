/**
 * sys/audit-hash/:path, as Vault's: the HMAC an audit device writes for a value, so a known token or
 * secret can be found in the audit log. svc has one device, the file audit device at path `file`.
 */
import { UserError } from '../../shared/errors.js';
import { definePath } from '../framework/path.js';

export const auditHashPaths = [
  definePath({
    pattern: 'audit-hash/:path',
    fields: {
      path: { type: 'string', description: 'The path of the audit device: "file", the file audit device (-audit-file, audit { file }).' },
      input: { type: 'string', description: 'The value to hash.', required: true, sensitive: true },
    },
    synopsis: "The hash of a value in an audit device's log.",
    description:
      'Answers the HMAC the audit device writes for the given value ("hmac-sha256:<hex>"), to look for a known token, ' +
      'accessor or secret in the audit log.',
    operations: {
      update: {
        summary: 'Hash a value as the audit device does.',
        handler: async (req, data) => {
          const device = req.services.audit;
          const name = data.get<string>('path').replace(/\/+$/, '');
          if (!device) throw new UserError(`unknown audit device "${name}": no audit device is configured (-audit-file, or audit { file } in the config file)`);
          if (name !== device.path) throw new UserError(`unknown audit device "${name}": the audit device is at "${device.path}"`);
          return { data: { hash: device.hash(data.get<string>('input')) } };
        },
      },
    },
  }),
];
