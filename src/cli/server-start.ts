/** `svc server`: builds the server, prints the banner, writes the dev token file, and waits for a signal. */
import type { Io } from './io.js';
import { writeTokenFile } from './token-file.js';
import { buildServer, type ServerOptions } from '../server/app.js';
import type { SvcServer } from '../server/app.js';
import type { DevCloud } from '../server/dev-cloud.js';
import { removeCloudEndpointFile, writeCloudEndpointFile } from './cloud-endpoint-file.js';
import { nodeBannerLines, stopSignal } from './daemon.js';
import { formatDuration } from '../shared/duration.js';

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** 127.0.0.0/8 and ::1 (also IPv4-mapped): addresses no other host can reach. */
function isLoopback(address: string): boolean {
  return /^(::ffff:)?127\./.test(address) || address === '::1';
}

/** `devCloud` (-dev-cloud) comes from the caller, which loads it from its own bundle. */
export async function startServer(opts: ServerOptions, io: Io, env: NodeJS.ProcessEnv, devCloud?: (server: SvcServer) => Promise<DevCloud>): Promise<number> {
  // From the first moment: a supervisor may stop us as soon as the banner appears.
  const signal = stopSignal();

  let server;
  try {
    server = await buildServer({ ...opts, holdHealthUntilReady: true });
  } catch (err) {
    io.err(`Error starting server: ${(err as Error).message}`);
    return 1;
  }
  let addr;
  try {
    addr = await server.listen();
  } catch (err) {
    await server.close();
    io.err(`Error starting server: cannot listen on ${opts.bind ?? '127.0.0.1'}:${opts.port ?? 4646}: ${(err as Error).message}`);
    return 1;
  }
  if (opts.cloud?.allowSha1) server.services.log.warn('-cloud-allow-sha1: ec2 logins accept SHA-1 signatures (the DSA pkcs7 document, and identity + signature with its SHA-1 signed certificate)');
  if (!opts.tls && !isLoopback(addr.address)) {
    server.services.log.warn(`listening on ${addr.address} without TLS: tokens and secrets cross the network in clear text; serve HTTPS with -tls-cert and -tls-key (tls { cert_file, key_file } in -config)`);
  }
  let cloud: DevCloud | undefined;
  if (devCloud) {
    try {
      cloud = await devCloud(server);
    } catch (err) {
      await server.close();
      io.err(`Error starting server: -dev-cloud: ${(err as Error).message}`);
      return 1;
    }
  }
  const url = `${opts.tls ? 'https' : 'http'}://${addr.address.includes(':') ? `[${addr.address}]` : addr.address}:${addr.port}`;
  const lines = [
    '==> svc server started! Log data will stream in below:',
    '',
    `             Version: ${server.services.version}`,
    `             Address: ${url}`,
    `            Data dir: ${opts.dataDir ?? '(temporary, removed at shutdown)'}`,
    `             Storage: ${opts.storageUrl ? 'postgres' : 'lmdb'}`,
    `            Seal key: ${server.services.seal.keyLocation}`,
  ];
  if (opts.auditFile) lines.push(`           Audit log: ${opts.auditFile}`);
  const node = server.node();
  if (node) lines.push(...nodeBannerLines(node));
  lines.push('');
  if (server.rootToken) {
    if (opts.dev) {
      const file = await writeTokenFile(env, server.rootToken);
      lines.push(
        'WARNING! dev mode is enabled! In this mode the data is not kept unless -data-dir is given,',
        `and the root token below is written to ${file} so that other commands work at once.`,
        '',
        `    export SVC_ADDR='${url}'`,
        '',
      );
    } else {
      lines.push('The server was initialised. This root token is shown ONCE; keep it safe:', '');
    }
    lines.push(`Root Token: ${server.rootToken}`, '');
  }
  if (cloud) {
    const file = await writeCloudEndpointFile(env, cloud.metadataUrl);
    lines.push(...cloud.banner, '', `The metadata endpoint is also in ${file}: export CLOUD_METADATA_ENDPOINT="$(svc print cloud-endpoint)"`, '');
  }
  io.out(lines.join('\n'));
  server.services.log.info(`listening on ${url}, data dir ${opts.dataDir ?? '(temporary)'}`);
  server.ready();

  const name = await signal;
  io.out(`==> Caught ${name}, shutting down`);
  const { tasks, withinMs } = server.tasksToStop();
  if (tasks > 0) {
    io.out(`==> Stopping ${plural(tasks, 'task')} (up to ${formatDuration(Math.ceil(withinMs / 1000))}); a second SIGINT or SIGTERM leaves ${tasks === 1 ? 'it' : 'them'} running`);
    // A second signal while they stop: leave them and finish closing at once.
    void stopSignal().then((again) => {
      const left = server.leaveTasks();
      if (left.tasks === 0) return;
      const them = left.tasks === 1 ? 'it' : 'them';
      io.out(`==> Caught ${again}: leaving ${plural(left.tasks, 'task')} running; \`svc server -dev -data-dir ${left.dataDir}\` finds ${them} again and finishes stopping ${them}`);
    });
  }
  try {
    await server.close();
  } catch (err) {
    io.err(`Error during shutdown: ${(err as Error).message}`);
    return 1;
  } finally {
    // After the server: a login in flight may still be calling the simulator.
    if (cloud) removeCloudEndpointFile(env, cloud.metadataUrl);
    await cloud?.close();
  }
  io.out('==> svc server stopped');
  return 0;
}
