/** `svc agent`'s body: the flags over the config file, checked, then the node started. */
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { CommandContext } from '../../define.js';
import { nodeMeta, serverOrigin } from '../../flags/node.js';
import { UsageError } from '../../../shared/errors.js';
import type { LogLevel } from '../../../shared/log.js';
import { KEYRING_FILES } from '../../../storage/keyring-names.js';

export async function agent({ io, env, flags }: CommandContext): Promise<number> {
  const file = flags.config ? await (await import('../../../server/config-file.js')).loadConfigFile(flags.config as string) : {};
  if (file.client?.enabled === false) throw new UsageError(`client.enabled = false in ${flags.config as string}: \`svc agent\` is a node, and runs one`);
  const given = (flags.servers as string[] | undefined) ?? [];
  const servers = serverUrls(given.length > 0 ? given : (file.client?.servers ?? []));
  const dataDir = (flags['data-dir'] as string | undefined) || file.dataDir;
  if (!dataDir) throw new UsageError("-data-dir is required: the directory that keeps the node's ID, its secret and its allocations (or data_dir in -config)");
  // A server's data dir (its keyring, sealed or not) holds its own node's identity: a second node there
  // would take that node's place.
  if (KEYRING_FILES.some((name) => existsSync(path.join(dataDir, name)))) throw new UsageError(`-data-dir ${dataDir} is a server's data dir: give the agent a directory of its own`);
  const tls = {
    caCert: flags['ca-cert'] as string | undefined,
    clientCert: flags['client-cert'] as string | undefined,
    clientKey: flags['client-key'] as string | undefined,
    serverName: flags['tls-server-name'] as string | undefined,
  };
  // Checked now, so a missing or unusable file is a usage error rather than every request failing.
  if (servers.some((s) => s.startsWith('https:'))) (await import('../../../api/http/tls.js')).tlsRequestOptions(tls);
  const token = flags.token as string | undefined;
  // raw_exec tasks get the agent's environment: a management token must not go with it.
  delete env.SVC_TOKEN;
  const { startAgent } = await import('../../agent-start.js');
  return startAgent(
    {
      servers,
      dataDir,
      token,
      tls,
      logLevel: ((flags['log-level'] as LogLevel | undefined) ?? file.logLevel ?? 'info') as LogLevel,
      logJson: ((flags['log-json'] as boolean | undefined) ?? file.logJson) === true,
      node: {
        datacenter: (flags.dc as string | undefined) ?? file.datacenter ?? 'dc1',
        name: (flags.node as string | undefined) ?? file.name,
        nodeClass: (flags['node-class'] as string | undefined) ?? file.client?.nodeClass ?? '',
        meta: nodeMeta(flags.meta as string[] | undefined, file.client?.meta),
        cgroups: file.client?.cgroups,
      },
    },
    io,
  );
}

/** -servers, each value possibly a comma-separated list, checked: the node sends its secret to them. */
function serverUrls(values: string[]): string[] {
  const addresses = values.flatMap((v) => v.split(',')).map((v) => v.trim()).filter((v) => v !== '');
  if (addresses.length === 0) throw new UsageError('-servers is required: the address of at least one server, as http(s)://host:port (or SVC_SERVERS, or client { servers } in -config)');
  return addresses.map((value) => serverOrigin(value, '-servers address'));
}
