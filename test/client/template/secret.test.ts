/**
 * The `secret` template function against a real server (in process) with real KV mounts: read shapes of
 * version 1 and 2, the write form, the first render waiting for a missing secret, a refused read, and a
 * task without a token. The task's token comes from its environment here, as a job's `env` gives it.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SecretSource } from '../../../src/client/template/secrets.js';
import { startInProcessServer, type InProcessServer } from '../../support/in-process.js';
import { freshMount, tokenWithPolicy } from '../../secrets/kv/kv-helpers.js';
import { MS, SEC, allDead, events, lastEvent, makeAlloc, rawTask, startRunner, taskState, tempDir, waitFor } from '../helpers.js';

const tmp = tempDir('svc-tmpl-secret-');
let ts: InProcessServer;
let v2: string;
let v1: string;
let reader: string;

beforeAll(async () => {
  ts = await startInProcessServer();
  v2 = await freshMount(ts, 2);
  v1 = await freshMount(ts, 1);
  reader = await tokenWithPolicy(ts, 'tmpl-reader', `path "${v2}/data/*" { capabilities = ["read"] }\npath "${v1}/*" { capabilities = ["read", "create", "update"] }`);
});
afterAll(async () => {
  await tmp.cleanup();
  await ts.close();
});

function secretSource(server: InProcessServer, pollMs: number): SecretSource {
  return { call: (method, p, token, body) => server.client(token).secrets(method, p, { body }), pollMs };
}

const file = (allocId: string, rel: string) => path.join(tmp.dir, allocId, rel);
const once = { RestartPolicy: { Attempts: 0, Interval: 30 * 60 * SEC, Delay: 100 * MS, Mode: 'fail' } };

describe('secret in a template', () => {
  it('reads a KV v2 secret as .Data.data and a KV v1 secret as .Data, in with, range and a pipeline', async () => {
    await ts.client().secrets('PUT', `${v2}/data/db`, { body: { data: { password: 'hunter2', user: 'app' } } });
    await ts.client().secrets('PUT', `${v1}/db`, { body: { password: 'plain-one' } });
    const data = [
      `{{ with secret "${v2}/data/db" }}pw={{ .Data.data.password }} v={{ .Data.metadata.version }}{{ end }}`,
      `{{ range $k, $v := (secret "${v2}/data/db").Data.data }}{{ $k }}={{ $v }};{{ end }}`,
      `v1={{ with secret "${v1}/db" }}{{ .Data.password }}{{ end }}`,
      `up={{ (secret "${v1}/db").Data.password | toUpper }}`,
    ].join('\n');
    const alloc = makeAlloc({ tasks: [rawTask('app', 'cat secrets/db.conf', { Env: { VAULT_TOKEN: reader }, Templates: [{ DestPath: 'secrets/db.conf', EmbeddedTmpl: data }] })] });
    const { runner } = await startRunner(alloc, tmp.dir, { secrets: secretSource(ts, 100) });
    await allDead(runner);
    expect(taskState(runner, 'app').Failed).toBe(false);
    expect(readFileSync(file(alloc.ID, 'app/secrets/db.conf'), 'utf8')).toBe('pw=hunter2 v=1\npassword=hunter2;user=app;\nv1=plain-one\nup=PLAIN-ONE');
  });

  it('writes with the write form (secret "path" "k=v"), and the written secret can be read back', async () => {
    const alloc = makeAlloc({
      tasks: [rawTask('app', 'true', { Env: { VAULT_TOKEN: reader }, Templates: [{ DestPath: 'local/w.txt', EmbeddedTmpl: `{{ with secret "${v1}/written" "a=1" "b=x=y" }}written{{ end }}` }] })],
    });
    const { runner } = await startRunner(alloc, tmp.dir, { secrets: secretSource(ts, 100) });
    await allDead(runner);
    expect(readFileSync(file(alloc.ID, 'app/local/w.txt'), 'utf8')).toBe('written');
    const back = await ts.client().secrets('GET', `${v1}/written`);
    expect(back?.data).toEqual({ a: '1', b: 'x=y' });
  });

  it('waits for a missing secret before the first render (Missing: vault.read(...)), then starts once it exists', async () => {
    const alloc = makeAlloc({
      tasks: [rawTask('app', 'cat secrets/late.conf', { Env: { VAULT_TOKEN: reader }, Templates: [{ DestPath: 'secrets/late.conf', EmbeddedTmpl: `{{ with secret "${v2}/data/late" }}{{ .Data.data.k }}{{ end }}` }] })],
    });
    const { runner } = await startRunner(alloc, tmp.dir, { secrets: secretSource(ts, 50) });
    const missing = await waitFor(() => lastEvent(runner, 'app', 'Template'), 'the Missing event');
    expect(missing.DisplayMessage).toBe(`Missing: vault.read(${v2}/data/late)`);
    expect(taskState(runner, 'app').State).toBe('pending');
    expect(existsSync(file(alloc.ID, 'app/secrets/late.conf'))).toBe(false);
    await ts.client().secrets('PUT', `${v2}/data/late`, { body: { data: { k: 'arrived' } } });
    await allDead(runner);
    expect(events(runner, 'app')).toEqual(['Received', 'Task Setup', 'Template', 'Started', 'Terminated']);
    expect(readFileSync(file(alloc.ID, 'app/secrets/late.conf'), 'utf8')).toBe('arrived');
  });

  it('fails the task when the token may not read the secret, naming the template and the path but no value', async () => {
    await ts.client().secrets('PUT', `${v2}/data/other`, { body: { data: { password: 'never-shown' } } });
    const alloc = makeAlloc({
      group: once,
      tasks: [rawTask('app', 'echo ran', { Env: { VAULT_TOKEN: reader }, Templates: [{ DestPath: 'secrets/x', EmbeddedTmpl: `{{ with secret "${v2}/metadata/other" }}{{ . }}{{ end }}` }] })],
    });
    const { runner } = await startRunner(alloc, tmp.dir, { secrets: secretSource(ts, 50) });
    await allDead(runner);
    const hook = lastEvent(runner, 'app', 'Task hook failed')!;
    expect(hook.DisplayMessage).toMatch(new RegExp(`^template: secrets/x: vault\\.read\\(${v2}/metadata/other\\): Code: 403\\. Errors: .*permission denied`));
    expect(JSON.stringify(runner.state())).not.toContain('never-shown');
    expect(taskState(runner, 'app')).toMatchObject({ State: 'dead', Failed: true });
  });

  it('fails the task that has no token, telling it to add a vault block', async () => {
    const alloc = makeAlloc({ group: once, tasks: [rawTask('app', 'echo ran', { Templates: [{ DestPath: 'secrets/x', EmbeddedTmpl: `{{ with secret "${v2}/data/db" }}{{ end }}` }] })] });
    const { runner } = await startRunner(alloc, tmp.dir, { secrets: secretSource(ts, 50) });
    await allDead(runner);
    expect(lastEvent(runner, 'app', 'Task hook failed')?.DisplayMessage).toBe(
      `template: secrets/x: vault.read(${v2}/data/db): the task has no token to read secrets with: give the task or its group a vault block`,
    );
  });

  it('is an error in the error_on_missing_key sense only with error_on_missing_key', async () => {
    const tmplData = `[{{ with secret "${v2}/data/db" }}{{ .Data.data.nokey }}{{ end }}]`;
    const lenient = makeAlloc({ tasks: [rawTask('app', 'true', { Env: { VAULT_TOKEN: reader }, Templates: [{ DestPath: 'local/a', EmbeddedTmpl: tmplData }] })] });
    const strict = makeAlloc({ group: once, tasks: [rawTask('app', 'true', { Env: { VAULT_TOKEN: reader }, Templates: [{ DestPath: 'local/a', EmbeddedTmpl: tmplData, ErrMissingKey: true }] })] });
    const a = await startRunner(lenient, tmp.dir, { secrets: secretSource(ts, 50) });
    const b = await startRunner(strict, tmp.dir, { secrets: secretSource(ts, 50) });
    await allDead(a.runner);
    await allDead(b.runner);
    expect(readFileSync(file(lenient.ID, 'app/local/a'), 'utf8')).toBe('[<no value>]');
    expect(lastEvent(b.runner, 'app', 'Task hook failed')?.DisplayMessage).toMatch(/^template: local\/a:1:\d+: .*nokey/);
  });
});
