/**
 * `svc auth cloud config certificate write|read|delete|list`: provider certificates trusted besides the
 * built-in ones. The certificate is a flag that takes @FILE, as Vault users write `aws_public_cert=@file`.
 */
import { CONFIG_CERTIFICATE_FIELDS } from '../../../../secrets/auth/cloud/fields.js';
import type { ArgSpec } from '../../../define.js';
import { endpointCommand } from './endpoint-command.js';

const name: ArgSpec = { name: 'cert_name', description: 'Name of the certificate.', required: true, complete: 'certificate' };

export const configCertificateCommands = [
  endpointCommand({
    words: ['config', 'certificate', 'write'],
    method: 'POST',
    endpoint: 'config/certificate/:cert_name',
    fields: CONFIG_CERTIFICATE_FIELDS,
    fromFile: ['cloud_public_cert'],
    args: [name],
    synopsis: 'Register a provider certificate',
    description:
      'Registers, or replaces, a public certificate of the provider under CERT_NAME (POST ' +
      'auth/<mount>/config/certificate/CERT_NAME): type "pkcs7" verifies the pkcs7 and rsa2048 documents, ' +
      '"identity" the raw signature of the identity document. Give the certificate as ' +
      '-cloud-public-cert=@FILE (a PEM file), - (stdin), or the PEM or its base64 inline.',
    examples: [
      { command: 'svc auth cloud config certificate write -cloud-public-cert=@provider.pem us-east', description: 'Trust the certificate in provider.pem for pkcs7 documents' },
      { command: 'svc auth cloud config certificate write -type=identity -cloud-public-cert=@signature.pem us-east-identity' },
    ],
    ok: 'the certificate was registered',
    failed: 'a server error, such as a value that is not one X.509 certificate',
  }),
  endpointCommand({
    words: ['config', 'certificate', 'read'],
    method: 'GET',
    endpoint: 'config/certificate/:cert_name',
    args: [name],
    synopsis: 'Print a registered certificate',
    description: 'Prints the certificate registered under CERT_NAME and its type. -field=cloud_public_cert prints only the PEM.',
    examples: [{ command: 'svc auth cloud config certificate read -field=cloud_public_cert us-east > us-east.pem' }],
    ok: 'the certificate was printed',
    failed: 'a server error, or no such certificate',
  }),
  endpointCommand({
    words: ['config', 'certificate', 'delete'],
    method: 'DELETE',
    endpoint: 'config/certificate/:cert_name',
    args: [name],
    synopsis: 'Remove a registered certificate',
    description: 'Removes the certificate registered under CERT_NAME. The built-in certificates cannot be removed.',
    examples: [{ command: 'svc auth cloud config certificate delete us-east' }],
    ok: 'the certificate was removed, or did not exist',
  }),
  endpointCommand({
    words: ['config', 'certificate', 'list'],
    method: 'LIST',
    endpoint: 'config/certificates',
    synopsis: 'List the registered certificates',
    description:
      'Lists the names of the registered certificates (LIST auth/<mount>/config/certificates); the ' +
      'built-in ones are not listed. When there are none it says "No value found" and exits 2, as the ' +
      'API answers 404.',
    examples: [{ command: 'svc auth cloud config certificate list -format=json' }],
    ok: 'the names were listed',
    failed: 'a server error, or no certificates',
  }),
];
