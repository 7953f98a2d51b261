import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { restoreAllocRunner } from '../../src/client/alloc-runner.js';
import { parseArtifact, parseChecksum } from '../../src/client/artifact/source.js';
import { MS, SEC, allDead, events, lastEvent, makeAlloc, quietLog, rawTask, startRunner, taskState, tempDir, testNode, track, waitFor } from './helpers.js';

const tmp = tempDir('svc-artifact-');
const fixtures = path.join(tmp.dir, 'fixtures');
const files: Record<string, Buffer> = {};
const hits: Record<string, number> = {};
const seenHeaders: Record<string, http.IncomingHttpHeaders> = {};
let server: http.Server;
let base: string;

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

beforeAll(async () => {
  mkdirSync(path.join(fixtures, 'bundle/bin'), { recursive: true });
  mkdirSync(path.join(fixtures, 'bundle/conf'), { recursive: true });
  writeFileSync(path.join(fixtures, 'bundle/bin/run.sh'), '#!/bin/sh\necho running\n', { mode: 0o755 });
  writeFileSync(path.join(fixtures, 'bundle/conf/app.conf'), 'key = value\n');
  execFileSync('tar', ['-czf', path.join(fixtures, 'bundle.tar.gz'), '-C', path.join(fixtures, 'bundle'), '.']);
  files['/files/bundle.tar.gz'] = readFileSync(path.join(fixtures, 'bundle.tar.gz'));
  files['/files/hello.txt'] = Buffer.from('hello artifact\n');
  files['/files/notes.txt.gz'] = gzipSync(Buffer.from('compressed notes\n'));
  files['/v/1.2.3/tool'] = Buffer.from('tool 1.2.3\n');
  files['/once/data.txt'] = Buffer.from('fetched once\n');
  files['/restore/r.txt'] = Buffer.from('kept across a server restart\n');
  execFileSync('zip', ['-q', '-r', path.join(fixtures, 'bundle.zip'), '.'], { cwd: path.join(fixtures, 'bundle') });
  files['/files/bundle.zip'] = readFileSync(path.join(fixtures, 'bundle.zip'));
  server = http.createServer((req, res) => {
    const url = new URL(req.url!, 'http://x');
    hits[url.pathname] = (hits[url.pathname] ?? 0) + 1;
    seenHeaders[url.pathname] = req.headers;
    if (url.pathname === '/redirect') return res.writeHead(302, { Location: '/files/hello.txt' }).end();
    if (url.pathname === '/redirect-twice') return res.writeHead(301, { Location: `${base}/redirect` }).end();
    if (url.pathname === '/hang') return; // never answers
    if (url.pathname === '/auth/secret.txt') {
      if (req.headers['x-token'] !== 'abc') return res.writeHead(403).end('forbidden');
      return res.end(`secret for ${url.searchParams.get('user')}\n`);
    }
    const body = files[url.pathname];
    if (!body) return res.writeHead(404).end('not found');
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await tmp.cleanup();
});

const allocDir = (id: string) => path.join(tmp.dir, id);
const failPolicy = (attempts: number) => ({ RestartPolicy: { Attempts: attempts, Interval: 30 * 60 * SEC, Delay: 50 * MS, Mode: 'fail' } });

describe('artifacts over HTTP', () => {
  it('downloads before the start: file mode, checksum, redirects, headers with options, interpolated source', async () => {
    const hello = files['/files/hello.txt'];
    const alloc = makeAlloc({
      job: { Meta: { version: '1.2.3', token: 'abc' } },
      tasks: [
        // `any` mode names the file after the source URL, not where its redirects led
        rawTask('app', 'cat local/bin/hello local/secret.txt local/tool local/twice/redirect-twice', {
          Artifacts: [
            { GetterSource: `${base}/redirect`, GetterMode: 'file', RelativeDest: 'local/bin/hello', GetterOptions: { checksum: `sha256:${sha256(hello)}` } },
            { GetterSource: `${base}/auth/secret.txt`, GetterHeaders: { 'X-Token': '${NOMAD_META_token}' }, GetterOptions: { user: '${NOMAD_TASK_NAME}' } },
            { GetterSource: `${base}/v/\${NOMAD_META_version}/tool`, GetterMode: 'file' },
            { GetterSource: `${base}/redirect-twice?checksum=md5:${createHash('md5').update(hello).digest('hex')}`, RelativeDest: 'local/twice' },
          ],
        }),
      ],
    });
    const { runner } = await startRunner(alloc, tmp.dir);
    await allDead(runner);
    expect(events(runner, 'app')).toEqual(['Received', 'Task Setup', 'Downloading Artifacts', 'Started', 'Terminated']);
    expect(lastEvent(runner, 'app', 'Downloading Artifacts')?.DisplayMessage).toBe('Client is downloading artifacts');
    expect(taskState(runner, 'app').Failed).toBe(false);
    expect(readFileSync(path.join(allocDir(alloc.ID), 'alloc/logs/app.stdout.0'), 'utf8')).toBe('hello artifact\nsecret for app\ntool 1.2.3\nhello artifact\n');
    // the file-mode destination is the file itself
    expect(statSync(path.join(allocDir(alloc.ID), 'app/local/bin/hello')).isFile()).toBe(true);
    expect(seenHeaders['/auth/secret.txt']['x-token']).toBe('abc');
  });

  it('unpacks .tar.gz, .zip and .gz archives, and keeps one with archive = "false"', async () => {
    const artifacts: Record<string, unknown>[] = [
      { GetterSource: `${base}/files/bundle.tar.gz`, RelativeDest: 'local/tgz' },
      { GetterSource: `${base}/files/notes.txt.gz` },
      { GetterSource: `${base}/files/bundle.tar.gz`, RelativeDest: 'local/kept', GetterOptions: { archive: 'false' } },
      { GetterSource: `${base}/files/bundle.tar.gz`, RelativeDest: 'local/checked', GetterOptions: { checksum: sha256(files['/files/bundle.tar.gz']) } },
    ];
    artifacts.push({ GetterSource: `${base}/files/bundle.zip`, RelativeDest: 'local/zip' });
    const alloc = makeAlloc({ tasks: [rawTask('app', 'local/tgz/bin/run.sh', { Artifacts: artifacts })] });
    const { runner } = await startRunner(alloc, tmp.dir);
    await allDead(runner);
    expect(taskState(runner, 'app').Failed).toBe(false);
    const local = path.join(allocDir(alloc.ID), 'app/local');
    expect(readFileSync(path.join(allocDir(alloc.ID), 'alloc/logs/app.stdout.0'), 'utf8')).toBe('running\n');
    expect(readFileSync(path.join(local, 'tgz/conf/app.conf'), 'utf8')).toBe('key = value\n');
    expect(statSync(path.join(local, 'tgz/bin/run.sh')).mode & 0o111).not.toBe(0);
    expect(readFileSync(path.join(local, 'notes.txt'), 'utf8')).toBe('compressed notes\n');
    expect(readFileSync(path.join(local, 'kept/bundle.tar.gz'))).toEqual(files['/files/bundle.tar.gz']);
    expect(existsSync(path.join(local, 'checked/conf/app.conf'))).toBe(true);
    expect(readFileSync(path.join(local, 'zip/conf/app.conf'), 'utf8')).toBe('key = value\n');
  });

  it('fails the download on a checksum mismatch, placing nothing', async () => {
    const wrong = '0'.repeat(64);
    const alloc = makeAlloc({
      tasks: [rawTask('app', 'true', { Artifacts: [{ GetterSource: `${base}/files/hello.txt`, GetterOptions: { checksum: `sha256:${wrong}` } }] })],
      group: failPolicy(0),
    });
    const { runner } = await startRunner(alloc, tmp.dir);
    await allDead(runner);
    const failed = lastEvent(runner, 'app', 'Failed Artifact Download')!;
    const message = `failed to download artifact "${base}/files/hello.txt": checksums did not match for hello.txt: expected sha256:${wrong}, got sha256:${sha256(files['/files/hello.txt'])}`;
    expect(failed).toMatchObject({ DownloadError: message, DisplayMessage: message, Details: { download_error: message } });
    expect(events(runner, 'app')).toEqual(['Received', 'Task Setup', 'Downloading Artifacts', 'Failed Artifact Download', 'Not Restarting']);
    expect(existsSync(path.join(allocDir(alloc.ID), 'app/local/hello.txt'))).toBe(false);
  });

  it('on a 404: Failed Artifact Download, retried per the restart policy, then the task fails without starting', async () => {
    const alloc = makeAlloc({ tasks: [rawTask('app', 'echo never', { Artifacts: [{ GetterSource: `${base}/missing.tgz` }] })], group: failPolicy(1) });
    const { runner } = await startRunner(alloc, tmp.dir);
    await allDead(runner);
    expect(events(runner, 'app')).toEqual([
      'Received',
      'Task Setup',
      'Downloading Artifacts',
      'Failed Artifact Download',
      'Restarting',
      'Downloading Artifacts',
      'Failed Artifact Download',
      'Not Restarting',
    ]);
    expect(lastEvent(runner, 'app', 'Failed Artifact Download')?.DownloadError).toBe(`failed to download artifact "${base}/missing.tgz": bad response code: 404`);
    expect(lastEvent(runner, 'app', 'Not Restarting')?.DisplayMessage).toBe('Exceeded allowed attempts 1 in interval 30m0s and mode is "fail"');
    expect(taskState(runner, 'app')).toMatchObject({ State: 'dead', Failed: true, Restarts: 1 });
    expect(runner.state().ClientStatus).toBe('failed');
  });

  it('downloads an artifact once: a restart of the task does not fetch it again', async () => {
    const alloc = makeAlloc({ tasks: [rawTask('app', 'cat local/data.txt; exit 1', { Artifacts: [{ GetterSource: `${base}/once/data.txt` }] })], group: failPolicy(2) });
    const { runner } = await startRunner(alloc, tmp.dir);
    await allDead(runner);
    expect(taskState(runner, 'app').Restarts).toBe(2);
    expect(hits['/once/data.txt']).toBe(1);
    expect(events(runner, 'app').filter((e) => e === 'Downloading Artifacts')).toHaveLength(1);
  });

  it('remembers downloaded artifacts across a server restart; templates are rendered again for the next start', async () => {
    const alloc = makeAlloc({
      tasks: [
        rawTask('app', 'cat local/r.txt; echo "v=$V"; sleep 0.5; exit 1', {
          Artifacts: [{ GetterSource: `${base}/restore/r.txt` }],
          Templates: [{ DestPath: 'local/v.env', EmbeddedTmpl: 'V=from-template', Envvars: true }],
        }),
      ],
      group: failPolicy(1),
    });
    const first = await startRunner(alloc, tmp.dir);
    await waitFor(() => taskState(first.runner, 'app').State === 'running', 'the task to run');
    first.runner.detach();
    const runner = track(restoreAllocRunner({ alloc, node: await testNode(), allocsDir: tmp.dir, log: quietLog, onUpdate: () => {} }));
    await allDead(runner);
    expect(taskState(runner, 'app').Restarts).toBe(1);
    expect(hits['/restore/r.txt']).toBe(1);
    expect(readFileSync(path.join(allocDir(alloc.ID), 'alloc/logs/app.stdout.0'), 'utf8')).toBe('kept across a server restart\nv=from-template\n'.repeat(2));
  });

  it('stops a download in progress when the allocation is stopped', async () => {
    const alloc = makeAlloc({ tasks: [rawTask('app', 'true', { Artifacts: [{ GetterSource: `${base}/hang` }] })], group: failPolicy(3) });
    const { runner } = await startRunner(alloc, tmp.dir);
    await waitFor(() => hits['/hang'] === 1, 'the download to begin');
    const started = Date.now();
    await runner.shutdown();
    expect(Date.now() - started).toBeLessThan(5000);
    expect(events(runner, 'app')).not.toContain('Failed Artifact Download');
    expect(taskState(runner, 'app').State).toBe('dead');
  });
});

describe('artifacts over HTTPS', () => {
  it('verifies the server certificate unless the artifact says insecure = true', async () => {
    const dir = path.join(tmp.dir, 'tls');
    mkdirSync(dir, { recursive: true });
    const [key, cert] = [path.join(dir, 'key.pem'), path.join(dir, 'cert.pem')];
    execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', key, '-out', cert, '-days', '1', '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1'], {
      stdio: 'ignore',
    });
    const tls = https.createServer({ key: readFileSync(key), cert: readFileSync(cert) }, (_req, res) => res.end('over tls\n'));
    await new Promise<void>((resolve) => tls.listen(0, '127.0.0.1', resolve));
    const url = `https://127.0.0.1:${(tls.address() as AddressInfo).port}/secure.txt`;
    try {
      // One allocation each: the failing one would kill its sibling.
      const verified = await startRunner(makeAlloc({ tasks: [rawTask('app', 'true', { Artifacts: [{ GetterSource: url }] })], group: failPolicy(0) }), tmp.dir);
      const insecure = await startRunner(makeAlloc({ tasks: [rawTask('app', 'cat local/secure.txt', { Artifacts: [{ GetterSource: url, GetterInsecure: true }] })] }), tmp.dir);
      await allDead(verified.runner);
      await allDead(insecure.runner);
      expect(lastEvent(verified.runner, 'app', 'Failed Artifact Download')?.DownloadError).toMatch(new RegExp(`^failed to download artifact "${url}": .*self[- ]signed certificate`));
      expect(taskState(insecure.runner, 'app').Failed).toBe(false);
      expect(readFileSync(path.join(allocDir(insecure.alloc.ID), 'alloc/logs/app.stdout.0'), 'utf8')).toBe('over tls\n');
    } finally {
      tls.closeAllConnections();
      await new Promise((resolve) => tls.close(resolve));
    }
  });
});

describe('artifacts from other sources', () => {
  it('copies local files and directories (absolute, file://, relative to the task dir)', async () => {
    const alloc = makeAlloc({
      tasks: [
        rawTask('app', 'cat local/copied/conf/app.conf local/hello-copy local/again/hello-copy', {
          Artifacts: [
            { GetterSource: path.join(fixtures, 'bundle'), RelativeDest: 'local/copied' },
            { GetterSource: `file://${path.join(fixtures, 'bundle.tar.gz')}`, RelativeDest: 'local/unpacked' },
            { GetterSource: `file://${path.join(fixtures, 'bundle/conf/app.conf')}`, GetterMode: 'file', RelativeDest: 'local/hello-copy' },
            { GetterSource: 'local/hello-copy', RelativeDest: 'local/again' },
          ],
        }),
      ],
    });
    const { runner } = await startRunner(alloc, tmp.dir);
    await allDead(runner);
    expect(taskState(runner, 'app').Failed).toBe(false);
    expect(readFileSync(path.join(allocDir(alloc.ID), 'alloc/logs/app.stdout.0'), 'utf8')).toBe('key = value\n'.repeat(3));
    expect(existsSync(path.join(allocDir(alloc.ID), 'app/local/unpacked/bin/run.sh'))).toBe(true);
  });

  it('refuses git, s3 and gcs sources, and destinations outside the allocation, with clear messages', async () => {
    // One allocation each: a failed task would kill its siblings before they try.
    const downloadError = async (artifact: Record<string, unknown>) => {
      const { runner } = await startRunner(makeAlloc({ tasks: [rawTask('app', 'true', { Artifacts: [artifact] })], group: failPolicy(0) }), tmp.dir);
      await allDead(runner);
      return lastEvent(runner, 'app', 'Failed Artifact Download')?.DownloadError;
    };
    expect(await downloadError({ GetterSource: 'git::https://github.com/hashicorp/example' })).toBe(
      'failed to download artifact "git::https://github.com/hashicorp/example": the git getter is not supported by svc (source "git::https://github.com/hashicorp/example"); artifacts can come from http:// and https:// URLs and local paths (file://)',
    );
    expect(await downloadError({ GetterSource: 's3::https://s3.amazonaws.com/bucket/foo' })).toMatch(/the s3 getter is not supported by svc/);
    expect(await downloadError({ GetterSource: `${base}/files/hello.txt`, RelativeDest: 'local/../../..' })).toMatch(/artifact destination "local\/..\/..\/.." escapes the allocation directory$/);
  });
});

describe('artifact source parsing (go-getter rules)', () => {
  it('detects getters from prefixes, schemes and known hosts', () => {
    expect(parseArtifact('https://example.com/a/b.tar.gz?x=1', {}).source).toMatchObject({ kind: 'http' });
    expect(parseArtifact('http::https://example.com/f', {}).source).toMatchObject({ kind: 'http' });
    expect(parseArtifact('/opt/pkg.zip', {}).source).toEqual({ kind: 'local', path: '/opt/pkg.zip', relative: false });
    expect(parseArtifact('sub/dir', {}).source).toEqual({ kind: 'local', path: 'sub/dir', relative: true });
    for (const [src, getter] of [
      ['github.com/hashicorp/nomad', 'git'],
      ['git@github.com:hashicorp/nomad.git', 'git'],
      ['git::ssh://git@example.com/repo.git', 'git'],
      ['bucket.s3.amazonaws.com/key', 's3'],
      ['gcs::https://www.googleapis.com/storage/v1/bucket/foo', 'gcs'],
      ['hg::http://example.com/repo', 'hg'],
      ['s3://bucket/key', 's3'],
    ]) {
      expect(() => parseArtifact(src, {}), src).toThrow(`the ${getter} getter is not supported by svc`);
    }
  });

  it('takes checksum, archive and filename from the query or the options, and sends the rest as query', () => {
    const p = parseArtifact('https://example.com/dl/app.bin?checksum=sha1:da39a3ee5e6b4b0d3255bfef95601890afd80709&keep=1', { archive: 'zip', token: 't' });
    expect(p.checksum).toEqual({ type: 'sha1', hex: 'da39a3ee5e6b4b0d3255bfef95601890afd80709' });
    expect(p.archive).toBe('zip');
    expect(p.source.kind === 'http' && p.source.url.toString()).toBe('https://example.com/dl/app.bin?keep=1&token=t');
    expect(p.namePath).toBe('/dl/app.bin');
  });

  it('reads checksums of each type, guessing the type from the length', () => {
    expect(parseChecksum('d41d8cd98f00b204e9800998ecf8427e')).toEqual({ type: 'md5', hex: 'd41d8cd98f00b204e9800998ecf8427e' });
    expect(parseChecksum(`SHA512:${'AB'.repeat(64)}`)).toEqual({ type: 'sha512', hex: 'ab'.repeat(64) });
    expect(() => parseChecksum('sha256:abcd')).toThrow('a sha256 checksum has 64 hex digits, this one 4');
    expect(() => parseChecksum('crc32:abcd')).toThrow('unsupported checksum type "crc32"');
    expect(() => parseChecksum('file:https://example.com/SHA256SUMS')).toThrow(/checksum files/);
  });
});
