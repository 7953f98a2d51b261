import { existsSync } from 'node:fs';
import path from 'node:path';
import { defineCommand, type FlagSpec } from '../../define.js';
import { HTTP_FLAGS } from '../../flags/common.js';
import { NODE_FLAGS, nodeMeta, serverOrigin } from '../../flags/node.js';
import { UsageError } from '../../../shared/errors.js';
import { LOG_LEVELS, type LogLevel } from '../../../shared/log.js';
import { KEYRING_FILES } from '../../../storage/keyring-names.js';

/**
 * The API client's TLS flags, as every other command takes them, for the agent's own connections; without
 * the NOMAD_ and VAULT_ fallbacks, which set up those tools' CLIs, not an agent.
 */
const TLS_FLAGS: FlagSpec[] = HTTP_FLAGS.filter((f) => ['ca-cert', 'client-cert', 'client-key', 'tls-server-name'].includes(f.name)).map((f) => ({ ...f, upstreamEnv: undefined, group: 'TLS Options' }));

export default defineCommand({
  path: ['agent'],
  synopsis: 'Run a node that joins servers on other machines',
  usage: 'svc agent -servers=<url>[,<url>...] -data-dir=<dir> [options]',
  description:
    "Runs a node without a server, as Nomad's `nomad agent -client -servers=...` does: it registers with the " +
    'servers, heartbeats, runs the allocations the servers place on it and reports their state. It talks to ' +
    'the first server of -servers that answers, and moves on to the next when that one cannot be reached or ' +
    'fails (a 5xx answer). A node joins once with a management token (-token or SVC_TOKEN); it keeps its ID ' +
    'and secret in -data-dir and registers with the secret alone from then on. SIGINT or SIGTERM stop the ' +
    'agent; its tasks keep running and are found again when it starts on the same data dir. From -config ' +
    'it reads data_dir, datacenter, name, log_level and the client block (servers, node_class, meta).',
  examples: [
    { command: 'svc agent -servers=https://10.0.0.1:4646 -data-dir=/var/lib/svc-agent -token=<management token>', description: 'Join a server for the first time' },
    { command: 'svc agent -servers=https://10.0.0.1:4646,https://10.0.0.2:4646 -data-dir=/var/lib/svc-agent', description: 'Restart a node that joined before, with two servers to choose from' },
  ],
  exitCodes: { 0: 'stopped by SIGINT or SIGTERM', 1: 'a usage error, or a server refused the node' },
  family: 'local',
  daemon: true,
  flags: [
    {
      name: 'servers',
      type: 'strings',
      env: 'SVC_SERVERS',
      description: 'Addresses of the servers (http(s)://host:port), comma-separated or repeated. Required (here, or client { servers } in -config).',
    },
    { name: 'data-dir', type: 'string', description: "Directory for the node's ID, secret and allocations. Required (here or in -config).", complete: 'dir' },
    {
      name: 'token',
      type: 'string',
      env: 'SVC_TOKEN',
      description: 'Management token for the first registration of a node the servers do not know yet. Not needed once the node has joined.',
    },
    { name: 'config', type: 'string', description: 'Path to a configuration file (HCL, YAML or JSON), as `svc server` reads.', complete: 'file' },
    { name: 'log-level', type: 'string', choices: LOG_LEVELS, description: 'Log level. The default is info.' },
    ...TLS_FLAGS,
    ...NODE_FLAGS,
  ],
  async run({ io, env, flags }) {
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
  },
});

/** -servers, each value possibly a comma-separated list, checked: the node sends its secret to them. */
function serverUrls(values: string[]): string[] {
  const addresses = values.flatMap((v) => v.split(',')).map((v) => v.trim()).filter((v) => v !== '');
  if (addresses.length === 0) throw new UsageError('-servers is required: the address of at least one server, as http(s)://host:port (or SVC_SERVERS, or client { servers } in -config)');
  return addresses.map((value) => serverOrigin(value, '-servers address'));
}
