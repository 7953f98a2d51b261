/**
 * auth/cloud/config/certificate/:cert_name and LIST auth/cloud/config/certificates: provider certificates
 * trusted besides the built-in ones, for the pkcs7 documents (`pkcs7`) or the identity document's raw
 * signature (`identity`). A value that is not exactly one parseable X.509 certificate is refused.
 */
import { X509Certificate } from 'node:crypto';
import { NotFound, UserError } from '../../../shared/errors.js';
import { definePath } from '../../framework/path.js';
import { CERTIFICATE_TYPES, CONFIG_CERTIFICATE_FIELDS } from './fields.js';
import { deleteEntry, listEntries, listEntryValues, readEntry, writeEntry } from './mount-storage.js';
import { prepareCertificates, type ParsedCertificates } from './login/trusted-certificates.js';

export type CertificateType = (typeof CERTIFICATE_TYPES)[number];

export interface RegisteredCertificate {
  pem: string;
  type: CertificateType;
}

const PEM_BLOCK = /-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/g;
const entry = (name: string) => `config/certificate/${name}`;

/** PEM, or base64 of PEM (tried first, as the upstream does), holding exactly one certificate. */
export function parseCertificateInput(raw: string): string {
  const text = raw.trim();
  if (text === '') throw new UserError('field "cloud_public_cert" must not be empty');
  let pemText = text;
  if (!text.includes('-----BEGIN')) {
    const decoded = Buffer.from(text.replace(/\s+/g, ''), 'base64').toString('utf8');
    if (!decoded.includes('-----BEGIN')) throw new UserError('field "cloud_public_cert" is neither a PEM certificate nor base64 of one');
    pemText = decoded;
  }
  const blocks = pemText.match(PEM_BLOCK) ?? [];
  if (blocks.length !== 1) throw new UserError(`field "cloud_public_cert" must hold exactly one PEM certificate block, found ${blocks.length}`);
  try {
    new X509Certificate(blocks[0]);
  } catch (err) {
    throw new UserError(`field "cloud_public_cert" is not a valid X.509 certificate: ${(err as Error).message}`);
  }
  return `${blocks[0].trim()}\n`;
}

/** Certificates registered on the mount for one verification path. */
export function registeredCertificates(store: Parameters<typeof readEntry>[0], accessor: string, type: CertificateType): string[] {
  return listEntryValues<RegisteredCertificate>(store, accessor, 'config/certificate')
    .filter(({ value }) => value.type === type)
    .map(({ value }) => value.pem);
}

/** `parsed`: the server's parsed certificates, which a registration adds to ahead of the logins that use it. */
export const configCertificatePaths = (parsed: ParsedCertificates) => [
  definePath({
    pattern: 'config/certificates',
    fields: {},
    synopsis: 'List the registered provider certificates.',
    description: 'Lists the names of the certificates registered with config/certificate (the built-in ones are not listed).',
    operations: {
      list: {
        summary: 'List certificate names.',
        handler: async (req) => {
          const keys = listEntries(req.services.store, req.mountAccessor, 'config/certificate');
          if (keys.length === 0) throw new NotFound();
          return { data: { keys } };
        },
      },
    },
  }),
  definePath({
    pattern: 'config/certificate/:cert_name',
    fields: CONFIG_CERTIFICATE_FIELDS,
    synopsis: 'Register a provider certificate.',
    description:
      'Registers a public certificate of the provider, trusted besides the built-in ones: type "pkcs7" for PKCS#7 ' +
      'signed documents, "identity" for the raw RSA signature of the identity document.',
    operations: {
      read: {
        summary: 'Read a registered certificate.',
        handler: async (req, data) => {
          const cert = readEntry<RegisteredCertificate>(req.services.store, req.mountAccessor, entry(data.get<string>('cert_name')));
          if (!cert) throw new NotFound();
          return { data: { cloud_public_cert: cert.pem, type: cert.type } };
        },
      },
      update: {
        summary: 'Register or replace a certificate.',
        handler: async (req, data) => {
          const pem = parseCertificateInput(data.get<string>('cloud_public_cert'));
          const type = data.get<CertificateType>('type');
          await writeEntry(req.services.store, req.mountAccessor, entry(data.get<string>('cert_name')), { pem, type } satisfies RegisteredCertificate);
          prepareCertificates(parsed, [pem]);
        },
      },
      delete: {
        summary: 'Remove a registered certificate.',
        handler: async (req, data) => deleteEntry(req.services.store, req.mountAccessor, entry(data.get<string>('cert_name'))),
      },
    },
  }),
];
