/**
 * The `secrets` template function (consul-template's vault.list) against a real server: the keys of a
 * LIST, sorted, with the task's token; a version 2 mount listed under metadata/ whether the template names
 * it or not; a path with nothing below it renders nothing and does not hold up the task; a refused LIST
 * fails the task naming vault.list(...); a running task's file follows the keys as they come and go, read
 * through the node's own ServerPool over HTTP, even beside a secret that the server can watch.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ServerPool } from '../../../src/client/server-pool.js';
import { poolSecretSource, type SecretSource } from '../../../src/client/template/secrets.js';
import { startInProcessServer, type InProcessServer } from '../../support/in-process.js';
import { startTestServer, type TestServer } from '../../support/server.js';
import { freshMount, tokenWithPolicy } from '../../secrets/kv/kv-helpers.js';
import { MS, SEC, allDead, events, lastEvent, makeAlloc, quietLog, rawTask, startRunner, taskState, tempDir, waitFor } from '../helpers.js';

const tmp = tempDir('svc-tmpl-secrets-list-');
let ts: InProcessServer;
let v2: string;
let v1: string;
let lister: string;

beforeAll(async () => {
  ts = await startInProcessServer();
  v2 = await freshMount(ts, 2);
  v1 = await freshMount(ts, 1);
  lister = await tokenWithPolicy(ts, 'tmpl-lister', `path "${v2}/metadata/*" { capabilities = ["list"] }\npath "${v1}/*" { capabilities = ["list"] }`);
  for (const name of ['zeta', 'alpha', 'app/db', 'app/cache', 'Mid']) await ts.client().secrets('PUT', `${v2}/data/${name}`, { body: { data: { v: name } } });
  for (const name of ['one', 'two/x']) await ts.client().secrets('PUT', `${v1}/${name}`, { body: { v: name } });
});
afterAll(async () => {
  await tmp.cleanup();
  await ts.close();
});

const source = (pollMs: number): SecretSource => ({ call: (method, p, token, body) => ts.client(token).secrets(method, p, { body }), pollMs });
const once = { RestartPolicy: { Attempts: 0, Interval: 30 * 60 * SEC, Delay: 100 * MS, Mode: 'fail' } };
const rendered = (allocId: string) => readFileSync(path.join(tmp.dir, allocId, 'app/local/keys'), 'utf8');

function listTask(template: string, token = lister) {
  return rawTask('app', 'true', { Env: { VAULT_TOKEN: token }, Templates: [{ DestPath: 'local/keys', EmbeddedTmpl: template }] });
}

describe('secrets in a template', () => {
  it('lists the keys and folders of a version 2 mount, sorted, with or without metadata/ in the path', async () => {
    const template = [
      `{{ range secrets "${v2}/metadata/" }}{{ . }};{{ end }}`,
      `{{ range secrets "${v2}/" }}{{ . }};{{ end }}`,
      `{{ range secrets "${v2}/app" }}{{ . }};{{ end }}`,
      `{{ range secrets " /${v2}/metadata/app/ " }}{{ . }};{{ end }}`,
      `{{ len (secrets "${v2}") }}`,
    ].join('\n');
    const alloc = makeAlloc({ tasks: [listTask(template)] });
    const { runner } = await startRunner(alloc, tmp.dir, { secrets: source(100) });
    await allDead(runner);
    expect(taskState(runner, 'app').Failed).toBe(false);
    expect(rendered(alloc.ID)).toBe(['Mid;alpha;app/;zeta;', 'Mid;alpha;app/;zeta;', 'cache;db;', 'cache;db;', '4'].join('\n'));
  });

  it('lists a version 1 mount at the path as given', async () => {
    const alloc = makeAlloc({ tasks: [listTask(`{{ range secrets "${v1}/" }}{{ . }};{{ end }}|{{ range secrets "${v1}/two" }}{{ . }}{{ end }}`)] });
    const { runner } = await startRunner(alloc, tmp.dir, { secrets: source(100) });
    await allDead(runner);
    expect(rendered(alloc.ID)).toBe('one;two/;|x');
  });

  it('renders nothing for a path with nothing below it or an empty path, without waiting for one', async () => {
    const template = `[{{ range secrets "${v2}/metadata/nothing/here" }}{{ . }}{{ end }}][{{ range secrets "${v1}/absent" }}{{ . }}{{ end }}][{{ range secrets "" }}{{ . }}{{ end }}]`;
    const alloc = makeAlloc({ tasks: [listTask(template)] });
    const { runner } = await startRunner(alloc, tmp.dir, { secrets: source(100) });
    await allDead(runner);
    expect(rendered(alloc.ID)).toBe('[][][]');
    expect(events(runner, 'app')).toEqual(['Received', 'Task Setup', 'Started', 'Terminated']);
  });

  it('fails the task whose token may not list, naming vault.list and the path; a path of slashes is refused', async () => {
    const reader = await tokenWithPolicy(ts, 'tmpl-only-read', `path "${v2}/data/*" { capabilities = ["read"] }`);
    const refused = makeAlloc({ group: once, tasks: [listTask(`{{ range secrets "${v2}/metadata/" }}{{ . }}{{ end }}`, reader)] });
    const a = await startRunner(refused, tmp.dir, { secrets: source(50) });
    await allDead(a.runner);
    expect(lastEvent(a.runner, 'app', 'Task hook failed')?.DisplayMessage).toMatch(
      new RegExp(`^template: local/keys: vault\\.list\\(${v2}/metadata\\): Code: 403\\. Errors: .*permission denied`),
    );
    expect(taskState(a.runner, 'app')).toMatchObject({ State: 'dead', Failed: true });

    const slashes = makeAlloc({ group: once, tasks: [listTask('{{ range secrets "//" }}{{ . }}{{ end }}')] });
    const b = await startRunner(slashes, tmp.dir, { secrets: source(50) });
    await allDead(b.runner);
    expect(lastEvent(b.runner, 'app', 'Task hook failed')?.DisplayMessage).toContain('vault.list: invalid format: ""');
  });
});

describe('a running task listing secrets', () => {
  let srv: TestServer;
  let pool: ServerPool;
  beforeAll(async () => {
    srv = await startTestServer({ client: false });
    pool = new ServerPool([srv.url], undefined, quietLog);
    await srv.client().secrets('POST', 'sys/mounts/watched', { body: { type: 'kv', options: { version: '2' } } });
    await srv.client().secrets('POST', 'sys/mounts/listed', { body: { type: 'kv' } });
  });
  afterAll(async () => {
    await srv?.close();
  });

  // The secret's blocking read wakes on no change to the version 1 mount listed: the list is polled.
  it('re-renders as keys are added and removed, beside a secret the server could watch that does not change', async () => {
    const client = srv.client();
    await client.secrets('PUT', 'sys/policies/acl/list-watch', { body: { policy: 'path "listed/*" { capabilities = ["list"] }\npath "watched/data/*" { capabilities = ["read"] }' } });
    const token = String((await client.secrets('POST', 'auth/token/create', { body: { policies: ['list-watch'] } }))?.auth?.client_token);
    await client.secrets('PUT', 'listed/apps/web', { body: { v: '1' } });
    await client.secrets('PUT', 'watched/data/fixed', { body: { data: { v: 'same' } } });
    const template = '{{ with secret "watched/data/fixed" }}{{ .Data.data.v }}{{ end }}:{{ range secrets "listed/apps/" }}{{ . }},{{ end }}';
    const alloc = makeAlloc({ tasks: [rawTask('app', 'exec sleep 60', { Env: { VAULT_TOKEN: token }, Templates: [{ DestPath: 'local/keys', EmbeddedTmpl: template, ChangeMode: 'noop' }] })] });
    const { runner } = await startRunner(alloc, tmp.dir, { secrets: poolSecretSource(pool, 50) });
    const file = () => {
      try {
        return rendered(alloc.ID);
      } catch {
        return '';
      }
    };
    await waitFor(() => taskState(runner, 'app').State === 'running', 'the task running');
    expect(file()).toBe('same:web,');
    await client.secrets('PUT', 'listed/apps/api', { body: { v: '1' } });
    await waitFor(() => file() === 'same:api,web,', 'the added key');
    await client.secrets('DELETE', 'listed/apps/web');
    await waitFor(() => file() === 'same:api,', 'the removed key');
    await client.secrets('DELETE', 'listed/apps/api');
    await waitFor(() => file() === 'same:', 'no keys left');
    expect(taskState(runner, 'app')).toMatchObject({ State: 'running', Restarts: 0 });
    await runner.shutdown();
  });
});
