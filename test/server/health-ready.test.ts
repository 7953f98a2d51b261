/**
 * `svc server` opens GET /v1/sys/health only once it is ready (token file written, banner printed, its
 * node registered): a script that polls health and then runs commands never races the start. Everything
 * else is served from listen() on, so the server's own node can register through the API meanwhile.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server.js';

let ts: TestServer | undefined;
afterEach(async () => {
  await ts?.close();
  ts = undefined;
});

describe('health before and after ready', () => {
  it('holds health until ready() while other requests are answered', async () => {
    ts = await startTestServer({ client: false, holdHealthUntilReady: true });
    let answered = false;
    const health = ts
      .client('')
      .request('GET', '/v1/sys/health')
      .then((a) => {
        answered = true;
        return a;
      });
    // Requests sent after the health check are answered before it.
    expect((await ts.client().request('GET', '/v1/sys/auth')).status).toBe(200);
    expect((await ts.client().request('GET', '/v1/jobs')).status).toBe(200);
    expect(answered).toBe(false);
    ts.server.ready();
    expect((await health).status).toBe(200);
    // Open for good: later checks do not wait.
    expect((await ts.client('').request('GET', '/v1/sys/health')).status).toBe(200);
  });

  it('a held health check ends when the server stops', async () => {
    ts = await startTestServer({ client: false, holdHealthUntilReady: true });
    const health = ts.client('').request('GET', '/v1/sys/health').catch((err: Error) => err);
    expect((await ts.client().request('GET', '/v1/sys/auth')).status).toBe(200);
    const closing = ts.close();
    ts = undefined;
    await closing;
    const outcome = await health;
    // Either answered during shutdown or cut with the connection: never left hanging.
    expect(outcome instanceof Error || outcome.status > 0).toBe(true);
  });

  it('without holdHealthUntilReady, health answers once listen() is done', async () => {
    ts = await startTestServer({ client: false });
    expect((await ts.client('').request('GET', '/v1/sys/health')).status).toBe(200);
  });

  it('svc server -dev: health answers only once the token file exists', async () => {
    const { spawn } = await import('node:child_process');
    const { mkdtemp, rm, access } = await import('node:fs/promises');
    const os = await import('node:os');
    const path = await import('node:path');
    const { SVC_BIN } = await import('../support/server.js');
    const home = await mkdtemp(path.join(os.tmpdir(), 'svc-ready-'));
    const net = await import('node:net');
    // A port free a moment ago: the server must be polled from before it listens, so it cannot pick its own.
    const port = await new Promise<number>((resolve) => {
      const probe = net.createServer().listen(0, '127.0.0.1', () => {
        const { port: free } = probe.address() as { port: number };
        probe.close(() => resolve(free));
      });
    });
    const child = spawn(process.execPath, [SVC_BIN, 'server', '-dev', `-port=${port}`, '-log-level=warn'], { env: { ...process.env, HOME: home }, stdio: 'ignore' });
    const exited = new Promise((r) => child.once('exit', r));
    try {
      // Poll as a script would, from before the server listens; the first answer must find the token file.
      for (;;) {
        const answer = await fetch(`http://127.0.0.1:${port}/v1/sys/health`).catch(() => undefined);
        if (!answer) {
          if (child.exitCode !== null) throw new Error(`svc server -dev exited with ${child.exitCode} before answering`);
          await new Promise((r) => setTimeout(r, 20));
          continue;
        }
        expect(answer.status).toBe(200);
        await access(path.join(home, '.svc-token'));
        break;
      }
    } finally {
      child.kill('SIGTERM');
      await exited;
      await rm(home, { recursive: true, force: true });
    }
  });
});
