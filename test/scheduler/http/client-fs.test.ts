/**
 * /v1/client/fs/{ls,stat,cat,readat,stream} against a real raw_exec task's allocation directory: Nomad's
 * AllocFileInfo shapes, raw bytes, frames, the read-fs capability, and the walls: `..`, links the task
 * plants pointing out (to /etc), the runner's `.svc/` state and the tasks' secrets.
 */
import { appendFile, stat, truncate, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../support/server.js';
import { until } from '../../support/wait.js';
import { allocStream, collect, type AllocFileInfo, type Frame } from '../../../src/api/fs.js';

interface Stub {
  ID: string;
  NodeID: string;
  ClientStatus: string;
}

let srv: TestServer;
let alloc: Stub;
/** the allocation directory's host path */
let root: string;
const c = () => srv.client();

const HELLO = 'hello, files\n';
const BINARY = Buffer.from([0, 1, 2, 0xff, 0x80, 0x0a]);

/** The task lays out what the tests read, plants links out of its directory, then sleeps. */
const SCRIPT = [
  'cd "$NOMAD_TASK_DIR"',
  `printf '${HELLO.replace('\n', '\\n')}' > hello.txt`,
  'chmod 640 hello.txt',
  `printf '{"a": 1}' > data.json`,
  `printf '\\000\\001\\002\\377\\200\\n' > bin.dat`,
  'mkdir -p sub/deeper',
  'ln -s /etc etc-link',
  'ln -s /etc/hostname hostname-link',
  'ln -s ../../.svc svc-link',
  'ln -s hello.txt inner-link',
  'echo s3cr3t > "$NOMAD_SECRETS_DIR/token"',
  'touch ready',
  'exec sleep 300',
].join('; ');

/** The raw answer of a request: status, content type and body. */
async function get(what: string, query: Record<string, string | number | boolean>, token?: string, id = alloc.ID) {
  const answer = await srv.client(token).request('GET', `/v1/client/fs/${what}/${id}`, { query });
  return { status: answer.status, type: String(answer.headers['content-type']), body: answer.body, text: answer.body.toString() };
}

const json = async <T>(what: string, query: Record<string, string>) => {
  const r = await get(what, query);
  expect(r.status, r.text).toBe(200);
  return JSON.parse(r.text) as T;
};

/** What Go's RFC3339Nano makes of a file's modification time. */
async function modTime(rel: string): Promise<string> {
  const ns = (await stat(path.join(root, rel), { bigint: true })).mtimeNs;
  const frac = (ns % 1_000_000_000n).toString().padStart(9, '0').replace(/0+$/, '');
  return `${new Date(Number(ns / 1_000_000_000n) * 1000).toISOString().slice(0, 19)}${frac ? `.${frac}` : ''}Z`;
}

beforeAll(async () => {
  srv = await startTestServer();
  await c().scheduler('POST', '/v1/jobs', {
    body: {
      Job: {
        ID: 'files',
        Datacenters: ['dc1'],
        TaskGroups: [
          {
            Name: 'g',
            Tasks: [{ Name: 'web', Driver: 'raw_exec', Config: { command: '/bin/sh', args: ['-c', SCRIPT] }, KillTimeout: 1_000_000_000, Resources: { CPU: 20, MemoryMB: 16 } }],
          },
        ],
      },
    },
  });
  [alloc] = await until(
    () => c().scheduler<Stub[]>('GET', '/v1/job/files/allocations').then((r) => r.body),
    (l) => l.length === 1 && l[0].ClientStatus === 'running',
    'the allocation to run',
  );
  root = srv.server.services.scheduler.localNodes.get(alloc.NodeID)!.allocDir(alloc.ID)!;
  await until(() => stat(path.join(root, 'web/local/ready')), () => true, 'the task to lay out its files');
});

afterAll(async () => {
  await srv?.close();
});

describe('ls and stat', () => {
  it("lists a directory as Nomad's AllocFileInfo, by name, links as links, without the runner's state", async () => {
    const top = await json<AllocFileInfo[]>('ls', { path: '/' });
    expect(top.map((f) => f.Name)).toEqual(['alloc', 'web']);
    expect(top[0]).toEqual({ Name: 'alloc', IsDir: true, Size: (await stat(path.join(root, 'alloc'))).size, FileMode: 'drwxrwxrwx', ModTime: await modTime('alloc'), ContentType: '' });
    const shared = await json<AllocFileInfo[]>('ls', { path: 'alloc' });
    expect(shared.map((f) => [f.Name, f.FileMode])).toEqual([
      ['data', 'drwxrwxrwx'],
      ['logs', 'drwxrwxrwx'],
      ['tmp', 'dtrwxrwxrwx'],
    ]);
    const local = await json<AllocFileInfo[]>('ls', { path: '/web/local/' });
    const byName = Object.fromEntries(local.map((f) => [f.Name, f]));
    expect(Object.keys(byName)).toEqual(['bin.dat', 'data.json', 'etc-link', 'hello.txt', 'hostname-link', 'inner-link', 'ready', 'sub', 'svc-link']);
    expect(byName['hello.txt']).toMatchObject({ IsDir: false, Size: HELLO.length, FileMode: '-rw-r-----', ModTime: await modTime('web/local/hello.txt') });
    expect(byName['etc-link']).toMatchObject({ IsDir: false, FileMode: 'Lrwxrwxrwx' });
    expect(byName.sub).toMatchObject({ IsDir: true });
    expect(byName['hello.txt'].ModTime).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{1,9})?Z$/);
  });

  it('stats a file or directory, following links inside, with the content type sniffed', async () => {
    const hello = await json<AllocFileInfo>('stat', { path: 'web/local/hello.txt' });
    expect(hello).toEqual({ Name: 'hello.txt', IsDir: false, Size: HELLO.length, FileMode: '-rw-r-----', ModTime: await modTime('web/local/hello.txt'), ContentType: 'text/plain; charset=utf-8' });
    expect((await json<AllocFileInfo>('stat', { path: 'web/local/data.json' })).ContentType).toBe('application/json');
    expect((await json<AllocFileInfo>('stat', { path: 'web/local/bin.dat' })).ContentType).toBe('application/octet-stream');
    expect(await json<AllocFileInfo>('stat', { path: 'web/local/inner-link' })).toMatchObject({ Name: 'inner-link', Size: HELLO.length, FileMode: '-rw-r-----' });
    expect(await json<AllocFileInfo>('stat', { path: 'alloc/tmp' })).toMatchObject({ Name: 'tmp', IsDir: true, FileMode: 'dtrwxrwxrwx', ContentType: 'application/octet-stream' });
    expect(await json<AllocFileInfo>('stat', { path: '/' })).toMatchObject({ Name: alloc.ID, IsDir: true });
  });

  it('answers 404 for what is not there and 400 for listing a file', async () => {
    expect((await get('stat', { path: 'web/local/nope' })).status).toBe(404);
    expect((await get('ls', { path: 'nope/deeper' })).status).toBe(404);
    const file = await get('ls', { path: 'web/local/hello.txt' });
    expect(file.status).toBe(400);
    expect(file.text).toMatch(/not a directory/);
  });
});

describe('cat, readat and stream', () => {
  it('cat answers the raw bytes, binary included', async () => {
    expect((await get('cat', { path: 'web/local/hello.txt' })).text).toBe(HELLO);
    const bin = await get('cat', { path: '/web/local/bin.dat' });
    expect(bin.status).toBe(200);
    expect(bin.body.equals(BINARY)).toBe(true);
    // Through a link that stays inside.
    expect((await get('cat', { path: 'web/local/inner-link' })).text).toBe(HELLO);
  });

  it('cat refuses a directory (400) and answers 404 for a missing file', async () => {
    const dir = await get('cat', { path: 'web/local' });
    expect(dir.status).toBe(400);
    expect(dir.text).toMatch(/"web\/local" is a directory/);
    expect((await get('cat', { path: 'web/local/missing.txt' })).status).toBe(404);
  });

  it('readat answers limit bytes from offset, to the end without a limit', async () => {
    const read = async (q: Record<string, number>) => (await get('readat', { path: 'web/local/hello.txt', ...q })).text;
    expect(await read({ offset: 7, limit: 5 })).toBe(HELLO.slice(7, 12));
    expect(await read({ offset: 7 })).toBe(HELLO.slice(7));
    expect(await read({ offset: 0, limit: 0 })).toBe(HELLO);
    expect(await read({ offset: 1000 })).toBe('');
    for (const name of ['offset', 'limit']) {
      const bad = await get('readat', { path: 'web/local/hello.txt', [name]: -1 });
      expect(bad.status).toBe(400);
      expect(bad.text).toMatch(new RegExp(`"${name}"`));
    }
  });

  it('stream without follow answers frames naming the file, from either origin', async () => {
    const frames: Frame[] = [];
    for await (const f of await allocStream(c(), alloc.ID, { path: 'web/local/hello.txt', follow: false })) frames.push(f);
    expect(frames.map((f) => [f.file, f.offset, f.data.toString()])).toEqual([['web/local/hello.txt', HELLO.length, HELLO]]);
    const tail = await collect(await allocStream(c(), alloc.ID, { path: 'web/local/hello.txt', follow: false, origin: 'end', offset: 6 }));
    expect(tail.toString()).toBe(HELLO.slice(-6));
    const bad = await get('stream', { path: 'web/local/hello.txt', origin: 'middle' });
    expect(bad.status).toBe(400);
    expect(bad.text).toMatch(/"origin"/);
  });

  it('a followed file streams what is appended, restarts at a truncation and ends when the file is deleted', async () => {
    const file = path.join(root, 'web/local/grow.txt');
    await writeFile(file, 'first\n');
    const frames: Frame[] = [];
    const done = (async () => {
      for await (const f of await allocStream(c(), alloc.ID, { path: 'web/local/grow.txt' })) frames.push(f);
    })();
    const data = () => Buffer.concat(frames.map((f) => f.data)).toString();
    await until(async () => data(), (d) => d === 'first\n', 'the first line');
    await appendFile(file, 'second\n');
    await until(async () => data(), (d) => d === 'first\nsecond\n', 'the appended line');
    await truncate(file, 0);
    await until(async () => frames.some((f) => f.event === 'file truncated'), (seen) => seen, 'the truncation event');
    await appendFile(file, 'again\n');
    await until(async () => data(), (d) => d === 'first\nsecond\nagain\n', 'the line after the truncation');
    await unlink(file);
    await done;
    expect(frames.at(-1)).toMatchObject({ event: 'file deleted', file: 'web/local/grow.txt', offset: 'again\n'.length });
  });
});

describe('walls', () => {
  it('refuses paths that leave the allocation directory by .. (400)', async () => {
    for (const p of ['../', '/alloc/../../', 'web/../../../etc/passwd', '..']) {
      for (const what of ['ls', 'stat', 'cat', 'stream']) {
        const r = await get(what, { path: p, follow: false });
        expect({ p, what, status: r.status }).toEqual({ p, what, status: 400 });
        expect(r.text).toMatch(/escapes the allocation directory/);
      }
    }
    // `..` that stays inside is fine.
    expect((await get('cat', { path: 'web/local/../local/hello.txt' })).text).toBe(HELLO);
  });

  it('reads an absolute-looking path inside the allocation directory, never on the host', async () => {
    const r = await get('cat', { path: '/etc/passwd' });
    expect(r.status).toBe(404);
    expect(r.text).not.toMatch(/root:/);
  });

  it('refuses links the task planted that lead out, wherever they are on the path (400)', async () => {
    const paths = ['web/local/etc-link', 'web/local/etc-link/', 'web/local/etc-link/passwd', 'web/local/etc-link/no-such-file', 'web/local/hostname-link'];
    for (const p of paths) {
      for (const what of ['ls', 'stat', 'cat', 'readat', 'stream']) {
        const r = await get(what, { path: p, follow: false });
        expect({ p, what, status: r.status }).toEqual({ p, what, status: 400 });
        expect(r.text).toMatch(/resolves outside the allocation directory/);
      }
    }
  });

  it("treats the runner's .svc state as absent, however it is named", async () => {
    for (const p of ['.svc', '/.svc/', 'alloc/../.svc', 'web/local/svc-link']) {
      for (const what of ['ls', 'stat', 'cat']) {
        const r = await get(what, { path: p });
        expect({ p, what, status: r.status }).toEqual({ p, what, status: 404 });
      }
    }
  });

  it("lists a task's secrets but does not read them (403)", async () => {
    expect((await json<AllocFileInfo[]>('ls', { path: 'web/secrets' })).map((f) => f.Name)).toEqual(['token']);
    const r = await get('cat', { path: 'web/secrets/token' });
    expect(r.status).toBe(403);
    expect(r.text).toMatch(/Reading secret file prohibited/);
  });
});

describe('access', () => {
  it('needs read-fs in the namespace (403 with read-job or read-logs), a full ID (400) of a known allocation (404)', async () => {
    const tokenWith = async (name: string, caps: string[]) => {
      await c().request('PUT', `/v1/sys/policies/acl/${name}`, { body: { policy: `namespace "default" { capabilities = ${JSON.stringify(caps)} }` } });
      return String((await c().secrets('POST', 'auth/token/create', { body: { policies: [name] } }))!.auth!.client_token);
    };
    const readJob = await tokenWith('fs-read-job', ['read-job']);
    const readLogs = await tokenWith('fs-read-logs', ['read-logs']);
    const readFs = await tokenWith('fs-read-fs', ['read-fs']);
    for (const what of ['ls', 'stat', 'cat', 'readat', 'stream']) {
      const q = { path: what === 'ls' ? '/' : 'web/local/hello.txt', follow: false };
      expect({ what, status: (await get(what, q, readJob)).status }).toEqual({ what, status: 403 });
      expect({ what, status: (await get(what, q, readLogs)).status }).toEqual({ what, status: 403 });
      expect({ what, status: (await get(what, q, readFs)).status }).toEqual({ what, status: 200 });
      expect((await get(what, q, undefined, alloc.ID.slice(0, 8))).status).toBe(400);
      expect((await get(what, q, undefined, '0b5e7b3c-1111-2222-3333-444455556666')).status).toBe(404);
    }
  });
});
