// Exec over WebSocket, against the dev server's own node: keystroke round trips (one byte of stdin to
// its echo, under a pty and over pipes), stdout throughput, and many sessions at once with every byte
// checked. Figures only; the targets are printed beside them.
import { performance } from 'node:perf_hooks';
import WebSocket from 'ws';
import { call, table } from './lib.mjs';

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

async function runningAlloc(url, token) {
  const job = {
    ID: 'bench-exec',
    Datacenters: ['dc1'],
    TaskGroups: [{ Name: 'g', Count: 1, Tasks: [{ Name: 'shell', Driver: 'raw_exec', Config: { command: '/bin/sh', args: ['-c', 'exec sleep 3600'] }, Resources: { CPU: 20, MemoryMB: 16 } }] }],
  };
  await call(url, token, 'POST', '/v1/jobs', { Job: job });
  for (let i = 0; i < 400; i++) {
    const { body } = await call(url, token, 'GET', '/v1/job/bench-exec/allocations');
    const running = body.find((a) => a.ClientStatus === 'running');
    if (running) return running.ID;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('the exec benchmark job did not start');
}

/** Opens a session; `onData` sees every decoded stdout chunk; resolves with the exit code. */
function session(url, token, allocId, command, { tty = false, onOpen, onData } = {}) {
  const q = new URLSearchParams({ command: JSON.stringify(command), task: 'shell', tty: String(tty) });
  const ws = new WebSocket(`${url.replace(/^http/, 'ws')}/v1/client/allocation/${allocId}/exec?${q}`, { headers: { 'X-Svc-Token': token }, perMessageDeflate: false });
  return new Promise((resolve, reject) => {
    let exit;
    ws.on('open', () => onOpen?.(ws));
    ws.on('message', (data) => {
      const frame = JSON.parse(data.toString());
      if (frame.stdout?.data) onData?.(Buffer.from(frame.stdout.data, 'base64'));
      if (frame.exited) exit = frame.result.exit_code ?? 0;
    });
    ws.on('close', (code, reason) => (exit === undefined ? reject(new Error(`closed ${code} ${reason}`)) : resolve(exit)));
    ws.on('error', reject);
  });
}

const stdin = (s) => JSON.stringify({ stdin: { data: Buffer.from(s).toString('base64') } });

/** Sends one byte at a time and waits for it to come back: the time a typed key takes to show. */
async function keystrokes(url, token, allocId, { tty, count }) {
  const times = [];
  let waiting;
  await session(url, token, allocId, tty ? ['cat'] : ['cat'], {
    tty,
    onData: (buf) => {
      if (waiting && buf.includes(waiting.key)) {
        const w = waiting;
        waiting = undefined;
        w.done();
      }
    },
    onOpen: async (ws) => {
      if (tty) ws.send(JSON.stringify({ tty_size: { height: 24, width: 80 } }));
      for (let i = 0; i < count + 50; i++) {
        const key = String.fromCharCode(97 + (i % 26));
        const start = performance.now();
        // Over pipes cat sees the byte at once; under a pty the terminal echoes it at once.
        await new Promise((done) => {
          waiting = { key, done };
          ws.send(stdin(key));
        });
        if (i >= 50) times.push(performance.now() - start);
      }
      ws.send(JSON.stringify({ stdin: { close: true } }));
      if (tty) ws.send(stdin('\x04'));
    },
  });
  return times.sort((a, b) => a - b);
}

async function throughput(url, token, allocId, { bytes, tty }) {
  let received = 0;
  const start = performance.now();
  const exit = await session(url, token, allocId, ['/bin/sh', '-c', `head -c ${bytes} /dev/zero`], { tty, onData: (b) => (received += b.length) });
  const ms = performance.now() - start;
  if (exit !== 0 || (!tty && received !== bytes)) throw new Error(`throughput run: exit ${exit}, ${received} of ${bytes} bytes`);
  return { ms, mbps: received / 1024 / 1024 / (ms / 1000) };
}

/** `sessions` at once, each printing numbered lines; every session's output is compared in full. */
async function concurrent(url, token, allocId, { sessions, lines }) {
  const expected = Array.from({ length: lines }, (_, i) => `${i + 1}\n`).join('');
  const start = performance.now();
  const outputs = await Promise.all(
    Array.from({ length: sessions }, async () => {
      const chunks = [];
      const exit = await session(url, token, allocId, ['seq', '1', String(lines)], { onData: (b) => chunks.push(b) });
      return { exit, text: Buffer.concat(chunks).toString() };
    }),
  );
  const ms = performance.now() - start;
  const broken = outputs.filter((o) => o.exit !== 0 || o.text !== expected).length;
  return { ms, broken, bytes: expected.length * sessions };
}

export async function execBench(server, { keys = 2000, bytes = 512 * 1024 * 1024, sessions = 100, lines = 20000 } = {}) {
  const { url, token } = server;
  const allocId = await runningAlloc(url, token);
  try {
    const rows = [];
    for (const tty of [true, false]) {
      const t = await keystrokes(url, token, allocId, { tty, count: keys });
      rows.push([`keystroke round trip (${tty ? 'pty' : 'pipes'})`, `${keys} keys`, `p50 ${percentile(t, 50).toFixed(2)} ms, p99 ${percentile(t, 99).toFixed(2)} ms`, 'p50 < 2 ms']);
    }
    for (const tty of [false, true]) {
      const size = tty ? Math.min(bytes, 64 * 1024 * 1024) : bytes;
      const r = await throughput(url, token, allocId, { bytes: size, tty });
      rows.push([`stdout throughput (${tty ? 'pty' : 'pipes'})`, `${size / 1024 / 1024} MiB`, `${r.mbps.toFixed(0)} MiB/s (${r.ms.toFixed(0)} ms)`, tty ? '' : '> 100 MB/s']);
    }
    const c = await concurrent(url, token, allocId, { sessions, lines });
    rows.push([`concurrent sessions`, `${sessions} x seq ${lines}`, `${c.broken} of ${sessions} lost or damaged output; ${(c.bytes / 1024 / 1024).toFixed(1)} MiB in ${c.ms.toFixed(0)} ms`, '0 dropped']);
    console.log('\nExec over WebSocket (alloc exec): one raw_exec task on the dev node\n');
    console.log(table(['measure', 'size', 'result', 'target'], rows));
  } finally {
    await call(url, token, 'DELETE', '/v1/job/bench-exec?purge=true');
  }
}
