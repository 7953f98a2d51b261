/**
 * auth/cloud/config/client: the credentials and endpoints the server calls the provider with, and the
 * iam login checks (server-ID header, extra allowed headers). Create applies the defaults, update changes
 * only the fields sent, and a request with any invalid field stores nothing. The secret key is sealed at
 * rest and never returned. Every change moves the configuration table's index, so the next provider call
 * (in any server process sharing the store) is made with a provider built from the new settings.
 */
import { NotFound, UserError } from '../../../shared/errors.js';
import type { FieldData } from '../../../framework/schema/field-data.js';
import { definePath, type Handler } from '../../framework/path.js';
import { deleteClientConfig, readClientConfig, updateClientConfig, type ClientConfig } from './client-config.js';
import { CONFIG_CLIENT_FIELDS } from './fields.js';
import { canonicalHeaderName } from './header-name.js';
import { prepareCertificates, type ParsedCertificates } from './login/trusted-certificates.js';

/** Every field but the secret, which is sealed apart. */
const STORED_FIELDS = Object.keys(CONFIG_CLIENT_FIELDS).filter((name) => name !== 'secret_key') as Array<keyof ClientConfig>;
const URL_FIELDS = ['endpoint', 'iam_endpoint', 'sts_endpoint'] as const;

function canonicalHeaders(names: string[]): string[] {
  const out: string[] = [];
  for (const name of names) {
    const canonical = canonicalHeaderName(name);
    if (canonical === undefined) throw new UserError(`allowed_sts_header_values: "${name}" is not a valid HTTP header name`);
    if (!out.includes(canonical)) out.push(canonical);
  }
  return out;
}

/** The stored configuration with the request applied: all fields on create, only those sent on update. */
function merge(current: ClientConfig | undefined, data: FieldData): ClientConfig {
  const next: Record<string, unknown> = { ...current };
  // An entry written before a field existed gets that field's default.
  for (const name of STORED_FIELDS) if (!current || data.has(name) || !(name in current)) next[name] = data.get(name);
  const config = next as unknown as ClientConfig;
  if (data.has('allowed_sts_header_values')) config.allowed_sts_header_values = canonicalHeaders(config.allowed_sts_header_values);
  return config;
}

function validate(config: ClientConfig): void {
  if (config.max_retries < -1) throw new UserError(`max_retries must be -1 (the library default) or a number of retries >= 0, got ${config.max_retries}`);
  for (const field of URL_FIELDS) {
    const value = config[field];
    if (value === '') continue;
    let url: URL | undefined;
    try {
      url = new URL(value);
    } catch {
      url = undefined;
    }
    if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:') || url.hostname === '') {
      throw new UserError(`${field} "${value}" must be an http:// or https:// URL, or empty for the provider's default`);
    }
  }
  // Without sts_endpoint the region would silently pick a regional endpoint nobody configured:
  // sts_region only names sts_endpoint's region.
  if (config.sts_region !== '' && config.sts_endpoint === '') {
    throw new UserError(`sts_region "${config.sts_region}" is only used together with sts_endpoint: set sts_endpoint to that region's token service URL, or leave sts_region empty`);
  }
}

function warningsFor(config: ClientConfig, hasSecret: boolean, data: FieldData): string[] {
  const out: string[] = [];
  // Vault stores half a key pair too; it is then ignored and the environment or metadata credentials apply.
  if ((config.access_key !== '') !== hasSecret) {
    out.push(
      `${hasSecret ? 'secret_key' : 'access_key'} is set without ${hasSecret ? 'access_key' : 'secret_key'}: the pair is not used, ` +
        'and the server calls the provider with CLOUD_ACCESS_KEY/CLOUD_SECRET_KEY or the instance metadata credentials',
    );
  }
  if ((data.has('sts_endpoint') || data.has('sts_region')) && config.sts_endpoint !== '' && config.sts_region === '') {
    out.push('sts_endpoint is set without sts_region: calls to it are signed for us-east-1; set sts_region to the endpoint\'s region');
  }
  return out;
}

/** A mount being configured is about to take logins: its built-in certificates are parsed now, not by the first. */
function write(parsed: ParsedCertificates): Handler {
  return async (req, data) => {
    const { config, hasSecret } = await updateClientConfig(
      req.services,
      req.mountAccessor,
      (current) => {
        const next = merge(current, data);
        validate(next);
        return next;
      },
      data.has('secret_key') ? data.get<string>('secret_key') : undefined,
    );
    prepareCertificates(parsed);
    const warnings = warningsFor(config, hasSecret, data);
    return warnings.length > 0 ? { warnings } : undefined;
  };
}

/** `parsed`: the server's parsed certificates, which configuring a mount fills with the built-in ones. */
export const configClientPaths = (parsed: ParsedCertificates) => [
  definePath({
    pattern: 'config/client',
    fields: CONFIG_CLIENT_FIELDS,
    existenceCheck: (req) => readClientConfig(req.services, req.mountAccessor) !== undefined,
    synopsis: 'Configure the credentials and endpoints the server calls the cloud provider with.',
    description:
      'access_key and secret_key are the static credentials for DescribeInstances, GetInstanceProfile, ' +
      'GetUser/GetRole and AssumeRole calls; without both, CLOUD_ACCESS_KEY/CLOUD_SECRET_KEY and then the ' +
      'instance metadata service are used (a lone access_key or secret_key is stored but not used). The ' +
      'secret key is stored encrypted and never returned. endpoint, iam_endpoint and sts_endpoint replace ' +
      'the generated provider URLs; sts_region names sts_endpoint\'s region and needs it. ' +
      'allowed_sts_header_values is stored in canonical header form (x-custom-header: X-Custom-Header).',
    operations: {
      read: {
        summary: 'Read the client configuration, without the secret key.',
        handler: async (req) => {
          const config = readClientConfig(req.services, req.mountAccessor);
          if (!config) throw new NotFound();
          return { data: { ...config } };
        },
      },
      create: { summary: 'Configure the client; fields not sent take their defaults.', handler: write(parsed) },
      update: { summary: 'Change the given fields; the others keep their values.', handler: write(parsed) },
      delete: {
        summary: 'Remove the client configuration (credentials then come from the environment or the metadata service).',
        handler: async (req) => {
          await deleteClientConfig(req.services, req.mountAccessor);
        },
      },
    },
  }),
];
