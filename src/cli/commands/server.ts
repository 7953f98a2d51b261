import { defineCommand, type FlagValues } from '../define.js';
import type { FileConfig } from '../../server/config-file.js';
import type { TlsSettings } from '../../server/tls.js';
import type { SvcServer } from '../../server/app.js';
import { UsageError } from '../../shared/errors.js';
import { LOG_LEVELS, type LogLevel } from '../../shared/log.js';
import { NODE_FLAGS, nodeMeta, serverOrigin } from '../flags/node.js';

/** A TCP port: what node:net would refuse with a message about its own options. */
function portProblem(text: string): string | undefined {
  const port = Number(text);
  return port >= 0 && port <= 65535 ? undefined : 'a port is 0 to 65535 (0 picks a free one)';
}

export default defineCommand({
  path: ['server'],
  synopsis: 'Start the svc server (both APIs and a local node)',
  usage: 'svc server [options]',
  description:
    'Starts the embedded server: the secrets API and the scheduler API on one port. With -dev it needs no ' +
    'setup: data lives in a temporary directory unless -data-dir is given, and a root token is printed and ' +
    'written to the token file (~/.svc-token) so the next command just works. Without -dev the data dir is ' +
    'initialised on first start and the root token is printed once. SIGINT or SIGTERM stop it cleanly. ' +
    '`svc server members` lists the servers of the cluster.',
  examples: [
    { command: 'svc server -dev', description: 'Start a development server' },
    { command: 'svc server -dev -dev-cloud', description: 'The same, with a simulated cloud instance to try cloud logins from' },
    { command: 'svc server -config=/etc/svc/server.hcl', description: 'Start with a configuration file' },
    { command: 'svc server -data-dir=/var/lib/svc -storage-url=postgres://svc@db.internal/svc', description: 'Keep the state in PostgreSQL' },
  ],
  family: 'local',
  daemon: true,
  flags: [
    { name: 'dev', type: 'bool', description: 'Development mode: temporary storage, root token written to the token file.' },
    { name: 'config', type: 'string', description: 'Path to a configuration file (HCL, YAML or JSON).', complete: 'file' },
    { name: 'data-dir', type: 'string', env: 'SVC_DATA_DIR', description: 'Directory for the server state. Required without -dev (here or in -config).', complete: 'dir' },
    {
      name: 'storage-url',
      type: 'string',
      env: 'SVC_STORAGE_URL',
      description: 'Keep the state in this PostgreSQL database (postgres://user:password@host:port/db) instead of the data dir. Several servers may share one: one of them leads.',
    },
    { name: 'advertise', type: 'string', description: 'The API address other servers reach this one at (http(s)://host:port). The default is the listen address.' },
    { name: 'bind', type: 'string', description: 'Address to listen on. The default is 127.0.0.1.' },
    { name: 'port', type: 'int', check: portProblem, description: 'Port to listen on; 0 picks a free port. The default is 4646.' },
    { name: 'log-level', type: 'string', choices: LOG_LEVELS, description: 'Log level. The default is info.' },
    { name: 'dev-root-token-id', type: 'string', description: 'With -dev: use this value as the root token instead of a random one.' },
    {
      name: 'dev-cloud',
      type: 'bool',
      description: 'With -dev: run a cloud provider simulator that auth/cloud trusts, to try cloud logins (`svc print cloud-endpoint`).',
    },
    { name: 'dev-cloud-port', type: 'int', check: portProblem, description: 'With -dev-cloud: the port of the simulator; a free one by default.' },
    { name: 'cloud-allow-sha1', type: 'bool', description: 'Accept ec2 logins that rely on SHA-1: the DSA pkcs7 document, and identity + signature (a SHA-1 signed certificate).' },
    { name: 'seal-key-file', type: 'string', description: 'File of the key that seals the keyring; keep it outside the data dir. Made (0600) on first start.', complete: 'file' },
    { name: 'audit-file', type: 'string', description: "Append the audit log (JSON lines, secrets HMAC'd) to this file.", complete: 'file' },
    { name: 'tls-cert', type: 'string', description: 'Serve HTTPS with this certificate (PEM; intermediates after it). Needs -tls-key.', complete: 'file', group: 'TLS Options' },
    { name: 'tls-key', type: 'string', description: 'PEM file of the private key of -tls-cert.', complete: 'file', group: 'TLS Options' },
    { name: 'tls-client-ca', type: 'string', description: 'PEM file of the CAs client certificates are verified against; clients are asked for one.', complete: 'file', group: 'TLS Options' },
    { name: 'tls-require-client-cert', type: 'bool', description: 'Refuse connections without a client certificate signed by -tls-client-ca.', group: 'TLS Options' },
    {
      name: 'tls-node-client-cert',
      type: 'bool',
      description: 'Require a client certificate signed by -tls-client-ca on the node API only (node register, heartbeats, allocation pulls and updates, the node tunnel).',
      group: 'TLS Options',
    },
    { name: 'client', type: 'bool', default: true, description: 'Run a node in this server that runs tasks. -client=false serves the APIs only.', group: 'Node Options' },
    ...NODE_FLAGS,
  ],
  async run({ io, env, flags }) {
    const { loadConfigFile } = await import('../../server/config-file.js');
    const file = flags.config ? await loadConfigFile(flags.config as string) : {};
    const dev = flags.dev === true;
    const dataDir = (flags['data-dir'] as string | undefined) ?? file.dataDir;
    if (!dev && !dataDir) throw new UsageError('a data dir is required without -dev: pass -data-dir or set data_dir in -config');
    if (flags['dev-root-token-id'] && !dev) throw new UsageError('-dev-root-token-id is only allowed with -dev');
    if (flags['dev-cloud'] && !dev) throw new UsageError('-dev-cloud is only allowed with -dev');
    if (flags['dev-cloud-port'] !== undefined && !flags['dev-cloud']) throw new UsageError('-dev-cloud-port is only allowed with -dev-cloud');
    const storageUrl = (flags['storage-url'] as string | undefined) || file.storage?.postgres?.url;
    // The database's secrets open only with the data dir's keyring, and -dev removes a temporary one.
    if (dev && storageUrl && !dataDir) {
      throw new UsageError("with -dev and -storage-url, pass -data-dir too: -dev's temporary data dir holds the keyring that seals the database's secrets, and is removed when the server stops");
    }
    const meta = nodeMeta(flags.meta as string[] | undefined, file.client?.meta);
    if (file.client?.servers) throw new UsageError(`client.servers in ${flags.config as string} is for \`svc agent\`: the node of \`svc server\` uses the server it runs in`);
    const clientEnabled = flags.client !== false && file.client?.enabled !== false;
    const tls = tlsSettings(flags, file.tls, flags.config as string | undefined);
    // The flag, then the file, then the environment: the most specific place wins.
    const sealKeyFile = (flags['seal-key-file'] as string | undefined) || file.seal?.keyFile;
    const sealKey = sealKeyFile ? { file: sealKeyFile } : env.SVC_SEAL_KEY ? { env: env.SVC_SEAL_KEY } : undefined;
    // raw_exec tasks get the server's environment: the key, and the database URL with its password, must
    // not go with it.
    delete env.SVC_SEAL_KEY;
    delete env.SVC_STORAGE_URL;
    const { startServer } = await import('../server-start.js');
    // Its own bundle (the simulator is test code): `svc server` without -dev-cloud never loads it.
    const devCloudModule = flags['dev-cloud'] ? await import('../../server/dev-cloud.js') : undefined;
    const devCloud = devCloudModule && ((server: SvcServer) => devCloudModule.startDevCloud(server, { port: flags['dev-cloud-port'] as number | undefined }));
    return startServer(
      {
        dev,
        dataDir,
        bind: (flags.bind as string | undefined) ?? file.bind,
        port: (flags.port as number | undefined) ?? file.port,
        logLevel: ((flags['log-level'] as LogLevel | undefined) ?? file.logLevel ?? 'info') as LogLevel,
        devRootTokenId: flags['dev-root-token-id'] as string | undefined,
        tls,
        sealKey,
        auditFile: (flags['audit-file'] as string | undefined) || file.audit?.file,
        storageUrl,
        advertise: advertiseUrl((flags.advertise as string | undefined) || file.server?.advertise),
        heartbeatTtlMs: file.server?.minHeartbeatTtlMs,
        heartbeatGraceMs: file.server?.heartbeatGraceMs,
        heartbeatFailoverTtlMs: file.server?.failoverHeartbeatTtlMs,
        client: clientEnabled && {
          datacenter: (flags.dc as string | undefined) ?? file.datacenter,
          name: (flags.node as string | undefined) ?? file.name,
          nodeClass: (flags['node-class'] as string | undefined) ?? file.client?.nodeClass,
          meta,
          cgroups: file.client?.cgroups,
        },
        cloud: {
          env,
          metadataEndpoint: env.CLOUD_METADATA_ENDPOINT || undefined,
          allowSha1: ((flags['cloud-allow-sha1'] as boolean | undefined) ?? file.cloud?.allowSha1) === true,
        },
      },
      io,
      env,
      devCloud,
    );
  },
});

/** -advertise, checked: other servers send requests to it. */
function advertiseUrl(value: string | undefined): string | undefined {
  return value ? serverOrigin(value, '-advertise (or server.advertise)') : undefined;
}

/** The -tls-* flags over the file's tls block; a setting that needs another names where that one goes. */
function tlsSettings(flags: FlagValues, file: FileConfig['tls'] = {}, config?: string): TlsSettings | undefined {
  const certFile = (flags['tls-cert'] as string | undefined) || file.certFile;
  const keyFile = (flags['tls-key'] as string | undefined) || file.keyFile;
  const clientCaFile = (flags['tls-client-ca'] as string | undefined) || file.clientCaFile;
  const requireClientCert = ((flags['tls-require-client-cert'] as boolean | undefined) ?? file.requireClientCert) === true;
  const nodeClientCert = ((flags['tls-node-client-cert'] as boolean | undefined) ?? file.nodeClientCert) === true;
  const where = (flag: string, key: string) => `-${flag}${config ? ` (or ${key} in the tls block of ${config})` : ` (or ${key} in a -config tls block)`}`;
  if (!certFile !== !keyFile) throw new UsageError(`TLS needs a certificate and its key: ${certFile ? `set the key with ${where('tls-key', 'key_file')}` : `set the certificate with ${where('tls-cert', 'cert_file')}`}`);
  if (!certFile || !keyFile) {
    if (clientCaFile || requireClientCert || nodeClientCert) throw new UsageError(`client certificates need TLS: set ${where('tls-cert', 'cert_file')} and ${where('tls-key', 'key_file')}`);
    return undefined;
  }
  if ((requireClientCert || nodeClientCert) && !clientCaFile) {
    throw new UsageError(`${requireClientCert ? '-tls-require-client-cert' : '-tls-node-client-cert'} needs the CA client certificates are verified against: set ${where('tls-client-ca', 'client_ca_file')}`);
  }
  return { certFile, keyFile, clientCaFile, requireClientCert, nodeClientCert };
}
