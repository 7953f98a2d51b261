// The kv-rerender section: how long after a `kv put` a running task's template file shows the new value.
// A dev server of its own runs a raw_exec task whose template renders secret/data/bench (KV version 2) with
// the task's own token (a vault block with a read-only policy); then, `changes` times, a PUT of a new value
// and a read of the rendered file through the alloc fs API every 10 ms until it shows it. The same with a
// KV version 1 secret, and (`pollChanges` times) with a template that also reads a secret the node cannot
// watch (auth/token/lookup-self), which makes it poll. The figure is the time from the PUT's answer to the
// first read that shows the value (p50, p95, max).
import { call, median, percentile, startDevServer, table } from './lib.mjs';

const JOB = 'bench-kv-rerender';
const FILE = 'local/bench.txt';
const READ_EVERY_MS = 10;
const PUT_GAP_MS = 100;

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** The rendered file's content, or '' while it is not there. */
async function cat(url, token, allocId) {
  const res = await fetch(`${url}/v1/client/fs/cat/${allocId}?path=${encodeURIComponent(`web/${FILE}`)}`, { headers: { 'x-svc-token': token } });
  const text = await res.text();
  return res.ok ? text : '';
}

async function until(what, timeoutMs, probe) {
  for (const deadline = Date.now() + timeoutMs; ; await sleep(READ_EVERY_MS)) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`kv-rerender bench: ${what} within ${timeoutMs / 1000} s`);
  }
}

/** Puts `changes` new values at `apiPath` and answers the ms from each put's answer to the file showing it. */
async function measure({ url, token }, allocId, apiPath, body, changes) {
  const ms = [];
  for (let i = 1; i <= changes; i++) {
    const value = `${apiPath}-${i}`;
    // Apart as writes in use are, so that the node's least gap between two reads is not what is measured.
    await sleep(PUT_GAP_MS);
    await call(url, token, 'PUT', `/v1/${apiPath}`, body(value));
    const start = performance.now();
    await until(`the file did not show ${value}`, 60_000, async () => (await cat(url, token, allocId)) === value);
    ms.push(performance.now() - start);
  }
  return ms;
}

function job(policy, secretPath, field, extra = '') {
  return {
    ID: `${JOB}-${policy}`,
    Datacenters: ['dc1'],
    TaskGroups: [
      {
        Name: 'g',
        Tasks: [
          {
            Name: 'web',
            Driver: 'raw_exec',
            Config: { command: '/bin/sleep', args: ['3600'] },
            KillTimeout: 1_000_000_000,
            Vault: { Policies: [policy] },
            Templates: [{ EmbeddedTmpl: `{{ with secret "${secretPath}" }}{{ ${field} }}{{ end }}${extra}`, DestPath: FILE, ChangeMode: 'noop' }],
          },
        ],
      },
    ],
  };
}

/** Runs the job and answers its allocation once the first render shows `first`. */
async function running({ url, token }, spec, first) {
  await call(url, token, 'POST', '/v1/jobs', { Job: spec });
  const alloc = await until('the task did not start', 30_000, async () => (await call(url, token, 'GET', `/v1/job/${spec.ID}/allocations`)).body.find((a) => a.ClientStatus === 'running'));
  await until(`the first render did not show ${first}`, 30_000, async () => (await cat(url, token, alloc.ID)) === first);
  return alloc;
}

export async function kvRerenderBench({ bin, env, changes, pollChanges }) {
  const server = await startDevServer(bin, env);
  try {
    const { url, token } = server;
    await call(url, token, 'POST', '/v1/sys/mounts/plain', { type: 'kv' });
    await call(url, token, 'PUT', '/v1/sys/policies/acl/bench-v2', { policy: 'path "secret/data/bench" { capabilities = ["read"] }' });
    await call(url, token, 'PUT', '/v1/sys/policies/acl/bench-v1', { policy: 'path "plain/bench" { capabilities = ["read"] }' });
    await call(url, token, 'PUT', '/v1/secret/data/bench', { data: { value: 'v0' } });
    await call(url, token, 'PUT', '/v1/plain/bench', { value: 'v0' });
    const rows = [];
    const s = (v) => (v >= 1000 ? `${(v / 1000).toFixed(2)} s` : `${v.toFixed(0)} ms`);
    const row = (label, ms) => [label, ms.length, s(median(ms)), s(percentile(ms, 0.95)), s(Math.max(...ms))];

    const v2 = job('bench-v2', 'secret/data/bench', '.Data.data.value');
    const v2Alloc = await running(server, v2, 'v0');
    rows.push(row('version 2 (secret/data/bench): blocking read', await measure(server, v2Alloc.ID, 'secret/data/bench', (value) => ({ data: { value } }), changes)));
    await call(url, token, 'DELETE', `/v1/job/${v2.ID}?purge=true`);

    const v1 = job('bench-v1', 'plain/bench', '.Data.value');
    const v1Alloc = await running(server, v1, 'v0');
    rows.push(row('version 1 (plain/bench): blocking read', await measure(server, v1Alloc.ID, 'plain/bench', (value) => ({ value }), changes)));
    await call(url, token, 'DELETE', `/v1/job/${v1.ID}?purge=true`);

    // The task token's default policy reads auth/token/lookup-self: a secret, but not a KV one.
    const polled = job('bench-v2', 'secret/data/bench', '.Data.data.value', '{{ with secret "auth/token/lookup-self" }}{{ end }}');
    polled.ID = `${JOB}-polled`;
    await call(url, token, 'PUT', '/v1/secret/data/bench', { data: { value: 'p0' } });
    const polledAlloc = await running(server, polled, 'p0');
    rows.push(row('version 2 beside a secret not watched: 5 s poll', await measure(server, polledAlloc.ID, 'secret/data/bench', (value) => ({ data: { value } }), pollChanges)));
    await call(url, token, 'DELETE', `/v1/job/${polled.ID}?purge=true`);

    console.log(`\nkv put → re-rendered template file in a running task (the file read every ${READ_EVERY_MS} ms, puts ${PUT_GAP_MS} ms apart)\n`);
    console.log(table(['secret', 'changes', 'p50', 'p95', 'max'], rows));
    console.log(
      "\nA task's templates learn of a KV change from a blocking read of the secret, which the server answers once the " +
        'change is committed; a template that also reads a secret that cannot be watched so is read again every 5 s (the ' +
        "node's template poll interval), so its figure is that interval: each put here lands just after a poll.",
    );
  } finally {
    await server.stop();
  }
}
