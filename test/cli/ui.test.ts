/**
 * `svc ui`, as `nomad ui`: the UI's URL on the server the command talks to, an identifier's page, the
 * namespace in the query, a one-time token (never the token) with -authenticate, printed with -show-url
 * or handed to the platform's opener (here a stand-in xdg-open on PATH that writes down what it got).
 */
import { chmod, readFile, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTempDir, startTestServer, type TestServer } from '../support/server.js';
import { until } from '../support/wait.js';

let ts: TestServer;
beforeAll(async () => {
  ts = await startTestServer({ client: false });
  await ts.client().scheduler('POST', '/v1/jobs', { body: { Job: { ID: 'web-frontend', Datacenters: ['dc1'], TaskGroups: [{ Name: 'g', Tasks: [{ Name: 't', Driver: 'raw_exec', Config: { command: '/bin/true' } }] }] } } });
});
afterAll(async () => ts?.close());

const urlOf = (stdout: string) => new URL(/^URL for web UI: (\S+)$/m.exec(stdout)![1]);

describe('svc ui', () => {
  it('prints the UI address with -show-url, and an identifier\'s page with the namespace asked for', async () => {
    const plain = await ts.cli(['ui', '-show-url']);
    expect(plain.code).toBe(0);
    expect(urlOf(plain.stdout).toString()).toBe(`${ts.url}/ui/`);

    const job = await ts.cli(['ui', '-show-url', '-namespace=default', 'web-fr']);
    expect(job.code).toBe(0);
    const url = urlOf(job.stdout);
    expect(url.pathname).toBe(`/ui/jobs/${encodeURIComponent('web-frontend@default')}`);
    expect(url.searchParams.get('namespace')).toBe('default');
    expect(url.searchParams.has('ott')).toBe(false);
  });

  it('puts a one-time token in the URL with -authenticate, which trades once for the token', async () => {
    const res = await ts.cli(['ui', '-authenticate', '-show-url']);
    expect(res.code).toBe(0);
    expect(res.stdout).not.toContain(ts.rootToken);
    const ott = urlOf(res.stdout).searchParams.get('ott')!;
    const exchange = () => ts.client('').scheduler<{ Token: { SecretID: string } }>('POST', '/v1/acl/token/onetime/exchange', { body: { OneTimeSecretID: ott } });
    expect((await exchange()).body.Token.SecretID).toBe(ts.rootToken);
    await expect(exchange()).rejects.toMatchObject({ statusCode: 403 });
  });

  it('says so when the identifier names nothing, and when -authenticate has no token to trade', async () => {
    const none = await ts.cli(['ui', '-show-url', 'zzz-nothing']);
    expect(none.code).toBe(1);
    expect(none.stderr).toContain('No matches returned for query: "zzz-nothing"');
    const anonymous = await ts.cli(['ui', '-authenticate', '-show-url'], { token: '' });
    expect(anonymous.code).toBe(1);
    expect(anonymous.stderr).toContain('Could not get one-time token');
  });

  it('hands the URL to the platform\'s opener without -show-url', async () => {
    const bin = await makeTempDir('svc-ui-opener-');
    const got = path.join(bin, 'opened');
    await writeFile(path.join(bin, 'xdg-open'), `#!/bin/sh\nprintf '%s' "$1" > ${JSON.stringify(got)}.tmp && mv ${JSON.stringify(got)}.tmp ${JSON.stringify(got)}\n`);
    await chmod(path.join(bin, 'xdg-open'), 0o755);
    const res = await ts.cli(['ui', '-authenticate'], { env: { PATH: `${bin}:${process.env.PATH}` } });
    expect(res.code).toBe(0);
    expect(res.stdout).toBe(`Opening URL "${ts.url}/ui/" with one-time token\n`);
    await until(async () => existsSync(got), (ok) => ok, 'the opener to be run');
    const opened = new URL(await readFile(got, 'utf8'));
    expect(opened.pathname).toBe('/ui/');
    expect(opened.searchParams.get('ott')).toMatch(/^[0-9a-f-]{36}$/);

    const missing = await ts.cli(['ui'], { env: { PATH: bin.replace(/$/, '-none') } });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('Error opening URL: xdg-open');
  });
});
