import { defineCommand, type FlagSpec } from '../../define.js';
import { HTTP_FLAGS } from '../../flags/common.js';
import { NODE_FLAGS } from '../../flags/node.js';
import { LOG_FLAGS } from '../../flags/log.js';

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
    'it reads data_dir, datacenter, name, log_level, log_json and the client block (servers, node_class, meta).',
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
    ...LOG_FLAGS,
    ...TLS_FLAGS,
    ...NODE_FLAGS,
  ],
  run: async (ctx) => (await import('./agent.run.js')).agent(ctx),
});
