/** `svc server`'s body: the flags over the config file, checked, then the server started. */
import type { CommandContext, FlagValues } from '../define.js';
import type { FileConfig } from '../../server/config-file.js';
import type { TlsSettings } from '../../server/tls.js';
import type { SvcServer } from '../../server/app.js';
import { UsageError } from '../../shared/errors.js';
import type { LogLevel } from '../../shared/log.js';
import { nodeMeta, serverOrigin } from '../flags/node.js';

export async function server({ io, env, flags }: CommandContext): Promise<number> {
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
      logJson: ((flags['log-json'] as boolean | undefined) ?? file.logJson) === true,
      devRootTokenId: flags['dev-root-token-id'] as string | undefined,
      tls,
      sealKey,
      auditFile: (flags['audit-file'] as string | undefined) || file.audit?.file,
      telemetry: file.telemetry,
      storageUrl,
      postgresTimeouts: file.storage?.postgres,
      advertise: advertiseUrl((flags.advertise as string | undefined) || file.server?.advertise),
      heartbeatTtlMs: file.server?.minHeartbeatTtlMs,
      heartbeatGraceMs: file.server?.heartbeatGraceMs,
      heartbeatFailoverTtlMs: file.server?.failoverHeartbeatTtlMs,
      eventBufferSize: file.server?.enableEventBroker === false ? 0 : file.server?.eventBufferSize,
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
}

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
