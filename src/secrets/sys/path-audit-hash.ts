/**
 * sys/audit-hash/:path, as Vault's: the HMAC an audit device writes for a value, so a known token or
 * secret can be found in the audit log. Every svc audit device hashes with the same key.
 */
import { UserError } from '../../shared/errors.js';
import { definePath } from '../framework/path.js';

export const auditHashPaths = [
  definePath({
    pattern: 'audit-hash/:path',
    fields: {
      path: { type: 'string', description: 'The path of the audit device, e.g. "file", the device of -audit-file (audit { file }).' },
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
          const name = data.get<string>('path').replace(/\/+$/, '');
          const known = req.services.audit?.list() ?? [];
          const device = known.find((d) => d.path === `${name}/`);
          if (known.length === 0) throw new UserError(`unknown audit device "${name}": no audit device is configured (-audit-file, or audit { file } in the config file)`);
          if (!device) {
            const paths = known.map((d) => `"${d.path.replace(/\/$/, '')}"`).join(', ');
            throw new UserError(`unknown audit device "${name}": the audit device${known.length > 1 ? 's are' : ' is'} at ${paths}`);
          }
          return { data: { hash: req.services.audit!.hash(data.get<string>('input')) } };
        },
      },
    },
  }),
];
