/**
 * A running task's templates learn of a changed KV secret from a blocking read, not from the poll
 * interval: with the interval set to ten minutes, a `kv put` (version 2 or 1, or both in one template)
 * still re-renders the file at once. A template that also reads a secret which cannot be watched so (not
 * a KV secret) keeps polling. The secrets are read through the node's own ServerPool over HTTP, as a node
 * reads them.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { ServerPool } from '../../../src/client/server-pool.js';
import { poolSecretSource } from '../../../src/client/template/secrets.js';
import { startTestServer, type TestServer } from '../../support/server.js';
import { makeAlloc, quietLog, rawTask, startRunner, taskState, tempDir, waitFor } from '../helpers.js';

const tmp = tempDir('svc-tmpl-watch-');
let srv: TestServer;
let pool: ServerPool;

const TEN_MINUTES_MS = 10 * 60 * 1000;

const read = (allocId: string, rel: string) => {
  try {
    return readFileSync(path.join(tmp.dir, allocId, 'app', rel), 'utf8');
  } catch {
    return '';
  }
};

function secretTask(secretPath: string, token: string, field: string) {
  return rawTask('app', 'exec sleep 60', {
    Env: { VAULT_TOKEN: token },
    Templates: [{ DestPath: 'secrets/out', EmbeddedTmpl: `{{ with secret "${secretPath}" }}{{ ${field} }}{{ end }}`, ChangeMode: 'noop' }],
  });
}

beforeAll(async () => {
  srv = await startTestServer({ client: false });
  pool = new ServerPool([srv.url], undefined, quietLog);
  const client = srv.client();
  await client.secrets('POST', 'sys/mounts/watched', { body: { type: 'kv', options: { version: '2' } } });
  await client.secrets('POST', 'sys/mounts/plain', { body: { type: 'kv' } });
});
afterAll(async () => {
  await tmp.cleanup();
  await srv?.close();
});

async function readerToken(policy: string): Promise<string> {
  const client = srv.client();
  await client.secrets('PUT', 'sys/policies/acl/watch-reader', { body: { policy } });
  const created = await client.secrets('POST', 'auth/token/create', { body: { policies: ['watch-reader'] } });
  return String(created?.auth?.client_token);
}

describe('templates watching their secrets', () => {
  it('re-renders on a new version 2 version long before the poll interval', async () => {
    const token = await readerToken('path "watched/data/*" { capabilities = ["read"] }');
    await srv.client().secrets('PUT', 'watched/data/db', { body: { data: { password: 'one' } } });
    const alloc = makeAlloc({ tasks: [secretTask('watched/data/db', token, '.Data.data.password')] });
    const { runner } = await startRunner(alloc, tmp.dir, { secrets: poolSecretSource(pool, TEN_MINUTES_MS) });
    await waitFor(() => taskState(runner, 'app').State === 'running', 'the task running');
    await waitFor(() => read(alloc.ID, 'secrets/out') === 'one', 'the first render');
    for (const next of ['two', 'three']) {
      await srv.client().secrets('PUT', 'watched/data/db', { body: { data: { password: next } } });
      await waitFor(() => read(alloc.ID, 'secrets/out') === next, `the file to show ${next}`);
    }
    await runner.shutdown();
  });

  it('watches version 1 and version 2 secrets of one task together', async () => {
    const token = await readerToken('path "watched/data/*" { capabilities = ["read"] }\npath "plain/*" { capabilities = ["read"] }');
    await srv.client().secrets('PUT', 'watched/data/mixed', { body: { data: { password: 'a1' } } });
    await srv.client().secrets('PUT', 'plain/mixed', { body: { password: 'b1' } });
    const template = '{{ with secret "watched/data/mixed" }}{{ .Data.data.password }}{{ end }}-{{ with secret "plain/mixed" }}{{ .Data.password }}{{ end }}';
    const alloc = makeAlloc({ tasks: [rawTask('app', 'exec sleep 60', { Env: { VAULT_TOKEN: token }, Templates: [{ DestPath: 'secrets/out', EmbeddedTmpl: template, ChangeMode: 'noop' }] })] });
    const { runner } = await startRunner(alloc, tmp.dir, { secrets: poolSecretSource(pool, TEN_MINUTES_MS) });
    await waitFor(() => read(alloc.ID, 'secrets/out') === 'a1-b1', 'the first render');
    await srv.client().secrets('PUT', 'plain/mixed', { body: { password: 'b2' } });
    await waitFor(() => read(alloc.ID, 'secrets/out') === 'a1-b2', 'the version 1 change');
    await srv.client().secrets('PUT', 'watched/data/mixed', { body: { data: { password: 'a2' } } });
    await waitFor(() => read(alloc.ID, 'secrets/out') === 'a2-b2', 'the version 2 change');
    await runner.shutdown();
  });

  it('polls where a secret the template reads cannot be watched', async () => {
    const token = await readerToken('path "watched/data/*" { capabilities = ["read"] }\npath "auth/token/lookup-self" { capabilities = ["read"] }');
    await srv.client().secrets('PUT', 'watched/data/polled', { body: { data: { password: 'one' } } });
    const template = '{{ with secret "watched/data/polled" }}{{ .Data.data.password }}{{ end }}{{ with secret "auth/token/lookup-self" }}{{ end }}';
    const alloc = makeAlloc({ tasks: [rawTask('app', 'exec sleep 60', { Env: { VAULT_TOKEN: token }, Templates: [{ DestPath: 'secrets/out', EmbeddedTmpl: template, ChangeMode: 'noop' }] })] });
    const { runner } = await startRunner(alloc, tmp.dir, { secrets: poolSecretSource(pool, 50) });
    await waitFor(() => read(alloc.ID, 'secrets/out') === 'one', 'the first render');
    await srv.client().secrets('PUT', 'watched/data/polled', { body: { data: { password: 'two' } } });
    await waitFor(() => read(alloc.ID, 'secrets/out') === 'two', 'the polled re-render');
    await runner.shutdown();
  });
});
