// The cloud login's figures: each login a real POST /v1/auth/cloud/login that verifies its document in
// full and writes durably (access-list entry, entity alias, token). Every ec2 login sends the document of
// an instance that has not logged in before, so nothing the server remembers from an earlier login can
// stand in for the signature check. Three kinds of process: the server (`svc server -dev
// -cloud-allow-sha1`, since the identity + signature login relies on SHA-1; its cloud mount configured
// over the API to trust the provider), the provider (bench/cloud-provider.ts: the
// loopback simulator that -dev-cloud serves (src/cloudsim), answering the server's DescribeInstances and GetCallerIdentity calls) and the load
// generators (bench/login-load.mjs).
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleBenchScript, call, cpuSecondsOf, startChild, startDevServer, table } from './lib.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const int = (n) => Math.round(n).toLocaleString('en-US');
// Logins of each ec2 kind made (untimed, by the same generators, each with a document of its own) before
// the figures: V8 keeps optimizing the verification code (in each worker thread) and the login path for
// the first few thousand logins. Measured here: rsa2048 at 980/s after 50 warm-up logins, 1,480/s after
// 3,000, and 1,960/s over 5,000 logins after 3,000; a server taking logins at these rates is past that
// within seconds, so the figures are its steady state.
export const WARMUP = 3000;

/** Points the dev server's auth/cloud mount at the provider: client config, its signer certificates, two roles. */
export async function configureMount(server, provider) {
  const write = (p, body) => call(server.url, server.token, 'POST', `/v1/${p}`, body);
  await write('auth/cloud/config/client', provider.clientConfig);
  await write('auth/cloud/config/certificate/bench-rsa2048', { type: 'pkcs7', cloud_public_cert: provider.certificates.rsa2048 });
  await write('auth/cloud/config/certificate/bench-identity', { type: 'identity', cloud_public_cert: provider.certificates.signature });
  await write('auth/cloud/role/bench-ec2', { auth_type: 'ec2', bound_account_id: provider.account, token_policies: 'default' });
  await write('auth/cloud/role/bench-iam', { auth_type: 'iam', bound_iam_principal_arn: provider.roleArn, token_policies: 'default' });
}

export async function cloudBench({ bin, env, concurrency, processes, logins }) {
  const { dir, script: providerScript } = await bundleBenchScript('cloud-provider');
  const documentsFile = path.join(dir, 'documents.json');
  const provider = startChild(providerScript);
  const generators = [];
  let server;
  try {
    const setup = await provider.ask('setup', { rsa2048: logins + WARMUP, identity: logins + WARMUP, file: documentsFile });
    server = await startDevServer(bin, env, { args: ['-cloud-allow-sha1'] });
    await configureMount(server, setup);
    for (let i = 0; i < processes; i++) generators.push(startChild(path.join(HERE, 'login-load.mjs'), { args: [server.url] }));
    const each = Math.max(1, Math.floor(concurrency / processes));
    // The measured rows take the first `logins` documents of each kind; the rest warm up the server and
    // the generators (their code and connections) the same way, untimed: without this, whichever row ran
    // first measured a third slower than when it ran second.
    /** Splits documents [from, from + count) of `kind` among the generators: each prepares its share. */
    const prepare = (kind, from, count) => {
      const share = Math.ceil(count / processes);
      return Promise.all(
        generators.map((g, i) => g.ask('prepare', { kind, file: documentsFile, from: from + i * share, to: from + Math.min(count, (i + 1) * share), creds: setup.creds })),
      );
    };
    const run = () => Promise.all(generators.map((g) => g.ask('run', { concurrency: each })));
    for (const kind of ['rsa2048', 'identity']) {
      await prepare(kind, logins, WARMUP);
      const error = (await run()).find((r) => r.error)?.error;
      if (error) throw new Error(`warm-up logins (${kind}) failed: ${error}`);
    }

    const rows = [];
    const failures = [];
    for (const [label, kind, target] of [
      ['ec2 pkcs7 (rsa2048), distinct documents', 'rsa2048', '≥ 1,500 /s'],
      ['ec2 identity + signature (-cloud-allow-sha1), distinct documents', 'identity', ''],
      ['iam (GetCallerIdentity), fresh signatures', 'iam', ''],
    ]) {
      await prepare(kind, 0, logins);
      const cpu = [server.pid, provider.pid].map(cpuSecondsOf);
      const runs = await run();
      const [serverCpu, providerCpu] = [server.pid, provider.pid].map((pid, i) => `${(cpuSecondsOf(pid) - cpu[i]).toFixed(1)} s`);
      const ms = Math.max(...runs.map((r) => r.endedAt)) - Math.min(...runs.map((r) => r.startedAt));
      const error = runs.find((r) => r.error)?.error;
      if (error) failures.push(`${label}: ${error}`);
      rows.push(
        error
          ? [label, int(logins), '', 'failed, see below', '', '', target]
          : [label, int(logins), `${int(ms)} ms`, `${int((logins / ms) * 1000)} /s`, serverCpu, providerCpu, target],
      );
    }
    console.log(
      `\nCloud logins: POST /v1/auth/cloud/login against -dev, from ${processes} processes × ${each} concurrent; the provider simulator in a process of its own\n`,
    );
    console.log(table(['login', 'logins', 'total', 'rate', 'server CPU', 'provider CPU', 'target'], rows));
    for (const failure of failures) console.log(`\n${failure}`);
  } finally {
    await Promise.all(generators.map((g) => g.stop()));
    await server?.stop();
    await provider.stop();
    await rm(dir, { recursive: true, force: true });
  }
}
