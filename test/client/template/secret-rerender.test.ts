/**
 * A running task's templates follow the secrets they read: a new version re-renders the file and
 * applies change_mode (restart, signal, script, noop); a read that starts failing is a
 * `Template failed: ...` event and the task keeps its last file. Real server in process, real raw_exec tasks.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SecretSource } from '../../../src/client/template/secrets.js';
import { startInProcessServer, type InProcessServer } from '../../support/in-process.js';
import { freshMount, tokenWithPolicy } from '../../secrets/kv/kv-helpers.js';
import { SEC, events, lastEvent, makeAlloc, rawTask, startRunner, taskState, tempDir, waitFor } from '../helpers.js';

const tmp = tempDir('svc-tmpl-rerender-');
let ts: InProcessServer;
let v2: string;
let reader: string;

beforeAll(async () => {
  ts = await startInProcessServer();
  v2 = await freshMount(ts, 2);
  reader = await tokenWithPolicy(ts, 'rerender-reader', `path "${v2}/data/*" { capabilities = ["read"] }`);
});
afterAll(async () => {
  await tmp.cleanup();
  await ts.close();
});

const source: () => SecretSource = () => ({ call: (method, p, token, body) => ts.client(token).secrets(method, p, { body }), pollMs: 50 });
const put = (name: string, password: string) => ts.client().secrets('PUT', `${v2}/data/${name}`, { body: { data: { password } } });
const read = (allocId: string, rel: string) => {
  try {
    return readFileSync(path.join(tmp.dir, allocId, 'app', rel), 'utf8');
  } catch {
    return '';
  }
};

function secretTask(name: string, script: string, extra: Record<string, unknown>) {
  return rawTask('app', script, {
    Env: { VAULT_TOKEN: reader },
    Templates: [{ DestPath: 'secrets/db.conf', EmbeddedTmpl: `password={{ with secret "${v2}/data/${name}" }}{{ .Data.data.password }}{{ end }}\n`, ...extra }],
  });
}

describe('re-rendering when a secret changes', () => {
  it('change_mode restart: the file is re-rendered and the task restarted, with Nomad\'s reason', async () => {
    await put('restart', 'one');
    const alloc = makeAlloc({ tasks: [secretTask('restart', 'cat secrets/db.conf; exec sleep 60', { ChangeMode: 'restart' })] });
    const { runner } = await startRunner(alloc, tmp.dir, { secrets: source() });
    await waitFor(() => taskState(runner, 'app').State === 'running', 'the task running');
    expect(read(alloc.ID, 'secrets/db.conf')).toBe('password=one\n');
    await put('restart', 'two');
    await waitFor(() => taskState(runner, 'app').Restarts === 1 && taskState(runner, 'app').State === 'running', 'the restart');
    expect(read(alloc.ID, 'secrets/db.conf')).toBe('password=two\n');
    expect(lastEvent(runner, 'app', 'Restart Signaled')?.DisplayMessage).toBe('Template with change_mode restart re-rendered');
    await waitFor(() => readFileSync(path.join(tmp.dir, alloc.ID, 'alloc/logs/app.stdout.0'), 'utf8') === 'password=one\npassword=two\n', 'both renders in the log');
    await runner.shutdown();
  });

  it('change_mode signal: the task gets change_signal and is not restarted', async () => {
    await put('signal', 'one');
    const script = 'trap "cat secrets/db.conf > local/seen" HUP; while true; do sleep 0.05; done';
    const alloc = makeAlloc({ tasks: [secretTask('signal', script, { ChangeMode: 'signal', ChangeSignal: 'SIGHUP' })] });
    const { runner } = await startRunner(alloc, tmp.dir, { secrets: source() });
    await waitFor(() => taskState(runner, 'app').State === 'running', 'the task running');
    await put('signal', 'two');
    await waitFor(() => read(alloc.ID, 'local/seen') === 'password=two\n', 'the task to see the new file on SIGHUP', 10 * 1000);
    const sig = lastEvent(runner, 'app', 'Signaling')!;
    expect(sig.DisplayMessage).toBe('Task being sent signal SIGHUP: Template re-rendered');
    expect(taskState(runner, 'app').Restarts).toBe(0);
    await runner.shutdown();
  });

  it('change_mode script: the script runs inside the task; noop only rewrites the file', async () => {
    await put('script', 'one');
    await put('noop', 'one');
    const alloc = makeAlloc({
      tasks: [
        rawTask('app', 'exec sleep 60', {
          Env: { VAULT_TOKEN: reader },
          Templates: [
            {
              DestPath: 'secrets/script.conf',
              EmbeddedTmpl: `{{ with secret "${v2}/data/script" }}{{ .Data.data.password }}{{ end }}`,
              ChangeMode: 'script',
              ChangeScript: { Command: '/bin/sh', Args: ['-c', 'cp secrets/script.conf local/by-script'], Timeout: 5 * SEC, FailOnError: false },
            },
            { DestPath: 'secrets/noop.conf', EmbeddedTmpl: `{{ with secret "${v2}/data/noop" }}{{ .Data.data.password }}{{ end }}`, ChangeMode: 'noop' },
          ],
        }),
      ],
    });
    const { runner } = await startRunner(alloc, tmp.dir, { secrets: source() });
    await waitFor(() => taskState(runner, 'app').State === 'running', 'the task running');
    await put('noop', 'two');
    await waitFor(() => read(alloc.ID, 'secrets/noop.conf') === 'two', 'the noop template re-rendered');
    await put('script', 'two');
    // The event is recorded once the script has exited, which is after its copy landed.
    await waitFor(() => lastEvent(runner, 'app', 'Task hook message'), 'the change script to end');
    expect(read(alloc.ID, 'local/by-script')).toBe('two');
    expect(lastEvent(runner, 'app', 'Task hook message')?.DisplayMessage).toBe('Template ran script /bin/sh with arguments ["-c","cp secrets/script.conf local/by-script"] on change');
    expect(taskState(runner, 'app')).toMatchObject({ State: 'running', Restarts: 0 });
    expect(events(runner, 'app')).not.toContain('Signaling');
    await runner.shutdown();
  });

  it('a read that starts failing is a Template failed event; the task keeps running with its last file', async () => {
    const revocable = await tokenWithPolicy(ts, 'rerender-revocable', `path "${v2}/data/*" { capabilities = ["read"] }`);
    await put('revoked', 'one');
    const alloc = makeAlloc({
      tasks: [rawTask('app', 'exec sleep 60', { Env: { VAULT_TOKEN: revocable }, Templates: [{ DestPath: 'secrets/db.conf', EmbeddedTmpl: `{{ with secret "${v2}/data/revoked" }}{{ .Data.data.password }}{{ end }}` }] })],
    });
    const { runner } = await startRunner(alloc, tmp.dir, { secrets: source() });
    await waitFor(() => taskState(runner, 'app').State === 'running', 'the task running');
    await ts.client().secrets('PUT', 'sys/policies/acl/rerender-revocable', { body: { policy: 'path "nothing/*" { capabilities = ["read"] }' } });
    const failed = await waitFor(() => lastEvent(runner, 'app', 'Template'), 'the Template failed event');
    expect(failed.DisplayMessage).toMatch(new RegExp(`^Template failed: vault\\.read\\(${v2}/data/revoked\\): Code: 403\\. Errors: .*permission denied`));
    expect(read(alloc.ID, 'secrets/db.conf')).toBe('one');
    expect(taskState(runner, 'app')).toMatchObject({ State: 'running', Restarts: 0 });
    await runner.shutdown();
  });
});
