/**
 * A task that outlived its server: once the node restores it, its templates are rendered again from the
 * secrets as they are now (a change made while the server was down gets the template's change_mode) and
 * watched from then on. Real server in process, real raw_exec task, the runner rebuilt from its directory.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { restoreAllocRunner } from '../../../src/client/alloc-runner.js';
import type { SecretSource } from '../../../src/client/template/secrets.js';
import { startInProcessServer, type InProcessServer } from '../../support/in-process.js';
import { freshMount, tokenWithPolicy } from '../../secrets/kv/kv-helpers.js';
import { lastEvent, makeAlloc, quietLog, rawTask, startRunner, taskState, tempDir, testNode, track, waitFor } from '../helpers.js';

const tmp = tempDir('svc-tmpl-restore-');
let ts: InProcessServer;
let v2: string;
let reader: string;

beforeAll(async () => {
  ts = await startInProcessServer();
  v2 = await freshMount(ts, 2);
  reader = await tokenWithPolicy(ts, 'restore-reader', `path "${v2}/data/*" { capabilities = ["read"] }`);
});
afterAll(async () => {
  await tmp.cleanup();
  await ts.close();
});

const secrets: SecretSource = { call: (method, p, token, body) => ts.client(token).secrets(method, p, { body }), pollMs: 50 };
const put = (password: string) => ts.client().secrets('PUT', `${v2}/data/db`, { body: { data: { password } } });

describe('templates of a restored task', () => {
  it('re-renders a secret changed while the server was down, restarts the task, and keeps watching', async () => {
    await put('one');
    const alloc = makeAlloc({
      tasks: [rawTask('app', 'exec sleep 60', { Env: { VAULT_TOKEN: reader }, Templates: [{ DestPath: 'secrets/db.conf', EmbeddedTmpl: `{{ with secret "${v2}/data/db" }}{{ .Data.data.password }}{{ end }}`, ChangeMode: 'restart' }] })],
    });
    const file = path.join(tmp.dir, alloc.ID, 'app/secrets/db.conf');
    const first = await startRunner(alloc, tmp.dir, { secrets });
    await waitFor(() => taskState(first.runner, 'app').State === 'running', 'the task running');
    first.runner.detach();

    await put('two');
    const runner = track(restoreAllocRunner({ alloc, node: await testNode(), allocsDir: tmp.dir, log: quietLog, onUpdate: () => undefined, secrets }));
    await waitFor(() => taskState(runner, 'app').Restarts === 1 && taskState(runner, 'app').State === 'running', 'the restart after the restore');
    expect(readFileSync(file, 'utf8')).toBe('two');
    expect(lastEvent(runner, 'app', 'Restart Signaled')?.DisplayMessage).toBe('Template with change_mode restart re-rendered');

    await put('three');
    await waitFor(() => taskState(runner, 'app').Restarts === 2 && readFileSync(file, 'utf8') === 'three', 'the next change, watched after the restore');
    await runner.shutdown();
  });
});
