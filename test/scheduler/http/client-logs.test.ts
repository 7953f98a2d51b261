/**
 * GET /v1/client/fs/logs/:alloc against real raw_exec tasks on the server's own node: every query
 * parameter and error row, frames that decode to exactly the bytes the task wrote (binary included),
 * offsets across rotated files, a follow that crosses rotations without losing or repeating a byte and
 * ends by itself when the task exits, and a follow ended cleanly by the server's shutdown.
 */
import { createHash } from 'node:crypto';
import { readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../support/server.js';
import { alive, statusOf, until } from '../../support/wait.js';
import { allocLogs, collect, FrameParser, type Frame } from '../../../src/api/fs.js';

interface Stub {
  ID: string;
  NodeID: string;
  ClientStatus: string;
  TaskStates: Record<string, { State: string }> | null;
}

let srv: TestServer;
const c = () => srv.client();

/** What the `web` task writes: 100 lines, then bytes that are not text, on stdout; two lines on stderr. */
const WEB_STDOUT = Buffer.concat([Buffer.from(Array.from({ length: 100 }, (_, i) => `line ${i + 1}\n`).join('')), Buffer.from([0, 1, 0xff, 0xfe, 0x0a])]);
const WEB_STDERR = Buffer.from('warn one\nwarn two\n');

/** What the `rot` task writes once triggered: the numbers 1 to 600000, a line each (about 4 MB). */
const ROT_BLOCK = 10_000;
const ROT_BLOCKS = 60;
const ROT_ALL = Buffer.from(Array.from({ length: ROT_BLOCK * ROT_BLOCKS }, (_, i) => `${i + 1}\n`).join(''));
const MIB = 1024 * 1024;

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

function job(id: string, type: string, task: Record<string, unknown>, group: Record<string, unknown> = {}) {
  return {
    ID: id,
    Type: type,
    Datacenters: ['dc1'],
    TaskGroups: [
      {
        Name: 'g',
        Count: 1,
        RestartPolicy: { Attempts: 0, Mode: 'fail' },
        ReschedulePolicy: { Attempts: 0, Unlimited: false },
        ...group,
        Tasks: [{ Driver: 'raw_exec', KillTimeout: 1_000_000_000, Resources: { CPU: 20, MemoryMB: 16 }, ...task }],
      },
    ],
  };
}

async function runJob(spec: Record<string, unknown>): Promise<Stub> {
  await c().scheduler('POST', '/v1/jobs', { body: { Job: spec } });
  const [alloc] = await until(
    () => c().scheduler<Stub[]>('GET', `/v1/job/${String(spec.ID)}/allocations`).then((r) => r.body),
    (l) => l.length === 1 && l[0].ClientStatus === 'running',
    `the allocation of ${String(spec.ID)} to run`,
  );
  return alloc;
}

const logsDirOf = (a: Stub) => path.join(srv.server.services.scheduler.localNodes.get(a.NodeID)!.allocDir(a.ID)!, 'alloc', 'logs');

/** The raw answer of a logs request: status, content type and body. */
async function get(allocId: string, query: Record<string, string | number | boolean>, token?: string) {
  const answer = await srv.client(token).request('GET', `/v1/client/fs/logs/${allocId}`, { query });
  return { status: answer.status, type: String(answer.headers['content-type']), body: answer.body };
}

async function frames(allocId: string, opts: Parameters<typeof allocLogs>[2]): Promise<Frame[]> {
  const out: Frame[] = [];
  for await (const f of await allocLogs(c(), allocId, opts)) out.push(f);
  return out;
}

let web: Stub;
let webPid = 0;
let rot: Stub;
/** Everything a follow of `rot` from the start received, frame by frame; started before the task writes. */
let rotFollow: Promise<Frame[]>;

beforeAll(async () => {
  // Tasks outlive this server, so that only the shutdown itself can end the last test's follow; the
  // one task that would run on is killed by afterAll.
  srv = await startTestServer({ client: { stopTasksOnShutdown: false } });
  const script = `echo $$ > "$NOMAD_ALLOC_DIR/data/pid"; for i in $(seq 1 100); do echo line $i; done; printf '\\000\\001\\377\\376\\n'; echo warn one >&2; echo warn two >&2; exec sleep 300`;
  const rotScript =
    `while [ ! -e "$NOMAD_ALLOC_DIR/data/go" ]; do sleep 0.05; done; ` +
    `i=0; while [ $i -lt ${ROT_BLOCKS} ]; do seq $((i*${ROT_BLOCK}+1)) $((i*${ROT_BLOCK}+${ROT_BLOCK})); i=$((i+1)); sleep 0.02; done`;
  [web, rot] = await Promise.all([
    runJob(job('logs-web', 'service', { Name: 'web', Config: { command: '/bin/sh', args: ['-c', script] } })),
    runJob(job('logs-rot', 'batch', { Name: 'rot', Config: { command: '/bin/sh', args: ['-c', rotScript] }, LogConfig: { MaxFiles: 3, MaxFileSizeMB: 1 } })),
  ]);
  webPid = Number(await until(() => readFile(path.join(logsDirOf(web), '..', 'data', 'pid'), 'utf8'), (t) => t.trim() !== '', 'the pid of the web task'));
  await until(() => get(web.ID, { task: 'web', type: 'stdout', plain: true }), (r) => r.body.equals(WEB_STDOUT), 'the web task to write its output');
  await until(() => get(web.ID, { task: 'web', type: 'stderr', plain: true }), (r) => r.body.equals(WEB_STDERR), 'the web task to write its errors');
  // The follow starts before the task writes a byte, then the task is let go.
  await until(() => get(rot.ID, { task: 'rot', type: 'stdout', plain: true }), (r) => r.status === 200, 'the rot task to open its log');
  rotFollow = frames(rot.ID, { task: 'rot', type: 'stdout', follow: true });
  rotFollow.catch(() => undefined); // awaited (and so reported) by the tests
  await writeFile(path.join(logsDirOf(rot), '..', 'data', 'go'), '');
});

afterAll(async () => {
  await srv?.close();
  if (webPid && alive(webPid)) process.kill(webPid, 'SIGKILL');
});

describe('logs: parameters and refusals', () => {
  it('names the parameter that is missing or wrong (400)', async () => {
    const rows: Array<[Record<string, string | number>, RegExp]> = [
      [{ type: 'stdout' }, /"task"/],
      [{ task: 'web' }, /"type"/],
      [{ task: 'web', type: 'stdin' }, /"type"/],
      [{ task: 'web', type: 'stdout', origin: 'middle' }, /"origin"/],
      [{ task: 'web', type: 'stdout', offset: -1 }, /"offset"/],
      [{ task: 'web', type: 'stdout', offset: 'ten' }, /"offset"/],
      [{ task: 'web', type: 'stdout', follow: 'maybe' }, /"follow"/],
      [{ task: 'web', type: 'stdout', plain: 'maybe' }, /"plain"/],
      [{ task: 'nope', type: 'stdout' }, /unknown task name "nope"/],
    ];
    for (const [query, message] of rows) {
      const r = await get(web.ID, query);
      expect({ query, status: r.status }).toEqual({ query, status: 400 });
      expect(r.body.toString()).toMatch(message);
    }
  });

  it('needs the full allocation ID (400) of an allocation that exists (404)', async () => {
    expect((await get(web.ID.slice(0, 8), { task: 'web', type: 'stdout' })).status).toBe(400);
    const missing = await get('0b5e7b3c-1111-2222-3333-444455556666', { task: 'web', type: 'stdout' });
    expect(missing.status).toBe(404);
    expect(missing.body.toString()).toMatch(/alloc not found/);
  });

  it('needs read-logs or read-fs in the namespace (403 with read-job only)', async () => {
    const tokenWith = async (name: string, caps: string[]) => {
      await c().request('PUT', `/v1/sys/policies/acl/${name}`, { body: { policy: `namespace "default" { capabilities = ${JSON.stringify(caps)} }` } });
      const env = await c().secrets('POST', 'auth/token/create', { body: { policies: [name] } });
      return String(env!.auth!.client_token);
    };
    const readJob = await tokenWith('logs-read-job', ['read-job']);
    const readLogs = await tokenWith('logs-read-logs', ['read-logs']);
    const readFs = await tokenWith('logs-read-fs', ['read-fs']);
    const query = { task: 'web', type: 'stdout', plain: true };
    expect((await get(web.ID, query, readJob)).status).toBe(403);
    expect((await get(web.ID, query, readLogs)).body.equals(WEB_STDOUT)).toBe(true);
    expect((await get(web.ID, query, readFs)).body.equals(WEB_STDOUT)).toBe(true);
    expect(await statusOf(allocLogs(srv.client(readJob), web.ID, { task: 'web', type: 'stdout' }))).toEqual({ code: 403, message: 'Permission denied' });
  });

  it('answers 404 when the log has no file at all', async () => {
    // The executor opens both logs as the task starts; take one away for a moment.
    const dir = logsDirOf(web);
    await rename(path.join(dir, 'web.stderr.0'), path.join(dir, 'moved-away'));
    try {
      const r = await get(web.ID, { task: 'web', type: 'stderr' });
      expect(r.status).toBe(404);
      expect(r.body.toString()).toMatch(/log entry for task "web" and log type "stderr" not found/);
    } finally {
      await rename(path.join(dir, 'moved-away'), path.join(dir, 'web.stderr.0'));
    }
  });
});

describe('logs: content', () => {
  it('frames decode to exactly the bytes written, binary included, each naming its file and where its data ends', async () => {
    const got = await frames(web.ID, { task: 'web', type: 'stdout' });
    expect(Buffer.concat(got.map((f) => f.data)).equals(WEB_STDOUT)).toBe(true);
    let end = 0;
    for (const f of got) {
      expect(f.file).toBe('alloc/logs/web.stdout.0');
      end += f.data.length;
      expect(f.offset).toBe(end);
    }
    expect((await collect(await allocLogs(c(), web.ID, { task: 'web', type: 'stderr' }))).equals(WEB_STDERR)).toBe(true);
  });

  it('answers the concatenated JSON frames of Nomad, or the bytes alone with plain=true', async () => {
    const framed = await get(web.ID, { task: 'web', type: 'stderr' });
    expect(framed.type).toBe('application/json');
    expect(JSON.parse(framed.body.toString())).toEqual({ Offset: WEB_STDERR.length, Data: WEB_STDERR.toString('base64'), File: 'alloc/logs/web.stderr.0' });
    const plain = await get(web.ID, { task: 'web', type: 'stderr', plain: true });
    expect(plain.type).toMatch(/^text\/plain/);
    expect(plain.body.equals(WEB_STDERR)).toBe(true);
  });

  it('counts offset from the start or back from the end, clamped to what there is', async () => {
    const read = async (q: Record<string, string | number>) => (await get(web.ID, { task: 'web', type: 'stdout', plain: true, ...q })).body;
    expect((await read({ offset: 5 })).equals(WEB_STDOUT.subarray(5))).toBe(true);
    expect((await read({ origin: 'start', offset: 0 })).equals(WEB_STDOUT)).toBe(true);
    expect((await read({ origin: 'end', offset: 12 })).equals(WEB_STDOUT.subarray(WEB_STDOUT.length - 12))).toBe(true);
    expect((await read({ origin: 'end' })).length).toBe(0);
    expect((await read({ offset: WEB_STDOUT.length + 100 })).length).toBe(0);
    expect((await read({ origin: 'end', offset: WEB_STDOUT.length + 100 })).equals(WEB_STDOUT)).toBe(true);
  });
});

describe('logs: rotation', () => {
  it('follows across rotated files, nothing lost or repeated, and ends by itself when the task exits', async () => {
    const got = await rotFollow;
    const data = Buffer.concat(got.map((f) => f.data));
    expect(data.length).toBe(ROT_ALL.length);
    expect(sha(data)).toBe(sha(ROT_ALL));
    // Each file in turn, from 0, each frame's data ending where its offset says, each file read whole.
    const files = [...new Set(got.map((f) => f.file))];
    expect(files).toEqual(Array.from({ length: Math.ceil(ROT_ALL.length / MIB) }, (_, i) => `alloc/logs/rot.stdout.${i}`));
    const ends = new Map<string, number>();
    for (const f of got) {
      if (f.data.length === 0) continue;
      expect(f.offset - f.data.length).toBe(ends.get(f.file) ?? 0);
      ends.set(f.file, f.offset);
    }
    for (const file of files.slice(0, -1)) expect(ends.get(file)).toBe(MIB);
    const states = (await c().scheduler<Stub>('GET', `/v1/allocation/${rot.ID}`)).body.TaskStates;
    expect(states?.rot.State).toBe('dead');
  });

  it('reads the files still present as one log: offsets cross file boundaries from either end', async () => {
    await rotFollow;
    // Four files were written; max_files = 3 removed the first.
    const present = ROT_ALL.subarray(MIB);
    const read = async (q: Record<string, string | number>) => (await get(rot.ID, { task: 'rot', type: 'stdout', plain: true, ...q })).body;
    expect(sha(await read({}))).toBe(sha(present));
    expect((await read({ offset: MIB + 5 })).equals(present.subarray(MIB + 5))).toBe(true);
    expect((await read({ origin: 'end', offset: present.length - MIB + 7 })).equals(present.subarray(MIB - 7))).toBe(true);
    expect((await read({ origin: 'end', offset: 10 * MIB })).equals(present)).toBe(true);
    expect((await read({ offset: 10 * MIB })).length).toBe(0);
  });

  it('a follow of a task that is already dead sends what there is and ends', async () => {
    await rotFollow;
    const got = await frames(rot.ID, { task: 'rot', type: 'stdout', follow: true, origin: 'end', offset: 100 });
    expect(Buffer.concat(got.map((f) => f.data)).equals(ROT_ALL.subarray(ROT_ALL.length - 100))).toBe(true);
  });
});

describe('logs: reading frames', () => {
  it('parses concatenated frames split anywhere, heartbeats and braces in names included', () => {
    const frames = [
      { Offset: 3, Data: Buffer.from('a{"').toString('base64'), File: 'alloc/logs/x}{.stdout.0' },
      {},
      { Offset: 7, File: 'alloc/logs/x}{.stdout.0', FileEvent: 'file deleted' },
      { Data: Buffer.from([0, 0xff]).toString('base64'), File: 'a\\"b' },
    ];
    const wire = Buffer.from(frames.map((f) => JSON.stringify(f)).join(' \n'));
    // Every split point, and one byte at a time.
    for (let cut = 0; cut <= wire.length; cut++) {
      const parser = new FrameParser();
      const got = [...parser.push(wire.subarray(0, cut)), ...parser.push(wire.subarray(cut))];
      expect(got.map((f) => [f.offset, f.data.toString('hex'), f.file, f.event])).toEqual([
        [3, Buffer.from('a{"').toString('hex'), 'alloc/logs/x}{.stdout.0', ''],
        [0, '', '', ''],
        [7, '', 'alloc/logs/x}{.stdout.0', 'file deleted'],
        [0, '00ff', 'a\\"b', ''],
      ]);
      expect(parser.pending).toBe(false);
    }
    const parser = new FrameParser();
    const bytewise = [...wire].flatMap((b) => parser.push(Buffer.from([b])));
    expect(bytewise.length).toBe(4);
  });
});

describe('logs: shutdown', () => {
  it('a follow ends cleanly when the server shuts down', async () => {
    const seen: Frame[] = [];
    const ended = (async () => {
      for await (const f of await allocLogs(c(), web.ID, { task: 'web', type: 'stdout', follow: true, origin: 'end', offset: 4 })) seen.push(f);
      return 'ended';
    })();
    // Under way once its first frame arrives; the task is still running, so only shutdown can end it.
    await until(async () => seen.length, (n) => n > 0, 'the follow to send the tail of the log');
    await srv.close();
    // Not cut: a connection cut by close() (which it does to what is still open) would reject here.
    expect(await ended).toBe('ended');
    expect(Buffer.concat(seen.map((f) => f.data)).equals(WEB_STDOUT.subarray(WEB_STDOUT.length - 4))).toBe(true);
  });
});
