import { defineCommand } from '../define.js';
import { LOG_FLAGS } from '../flags/log.js';
import { NODE_FLAGS } from '../flags/node.js';

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
    ...LOG_FLAGS,
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
  run: async (ctx) => (await import('./server.run.js')).server(ctx),
});
