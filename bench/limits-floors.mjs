// The floors of `npm run bench -- limits` (bench/limits.mjs forks this script, once per role, each in a
// process of its own): what each measured path would cost if it did nothing but the one thing it cannot
// avoid, written with the libraries the product uses. Each forked instance plays one of these roles,
// asked over IPC:
//   - httpFloor: a bare node:http server answering every request with the same 60-byte JSON body;
//   - load: the load generator both HTTP servers are measured with (undici, keep-alive connections);
//   - lmdbFloor: the lmdb package opened with the product's options (src/storage/lmdb-store.ts), writing
//     an allocation record as the product stores it, 1,000 to a transaction, each transaction durable;
//   - rsaFloor: node:crypto verifying RSA-2048 SHA-256 signatures of distinct identity documents on one
//     core, as an ec2 rsa2048 login must at least once.
// Each floor's CPU time is its own process's (process.cpuUsage), in µs rather than /proc's 10 ms ticks.
import { generateKeyPairSync, randomUUID, sign, verify } from 'node:crypto';
import http from 'node:http';
import { performance } from 'node:perf_hooks';
import { open } from 'lmdb';
import { Pool } from 'undici';
import { serveParent } from './lib.mjs';

/** A health-like answer of exactly 60 bytes. */
const BODY = (() => {
  const head = JSON.stringify({ initialized: true, sealed: false, standby: false, p: '' });
  return Buffer.from(head.replace('"p":""', `"p":"${'.'.repeat(60 - head.length)}"`));
})();
if (BODY.length !== 60) throw new Error(`the floor's body is ${BODY.length} bytes, not 60`);

const PER_TRANSACTION = 1000;
const cpuUs = (since) => {
  const u = process.cpuUsage(since);
  return u.user + u.system;
};

let server;
let db;
let written = 0;
let signed = [];
let publicKey;

serveParent({
  /** CPU µs this process has used so far, every thread (the HTTP floor's cost, read around a round). */
  cpuUs: () => cpuUs(),

  /** Starts the floor server on 127.0.0.1, a free port; answers its URL. */
  async httpListen() {
    server = http.createServer({ keepAliveTimeout: 60_000 }, (req, res) => {
      // The request's body, if any, is read to its end as any server must before the next on its connection.
      req.resume();
      req.on('end', () => {
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': BODY.length });
        res.end(BODY);
      });
    });
    await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${server.address().port}`;
  },

  /**
   * `n` GET requests of `path` (with the token, if any), `connections` at a time over as many keep-alive
   * connections; any answer but 200 fails the run. Answers the wall time in ms.
   */
  async load({ url, path, token, n, connections }) {
    const pool = new Pool(url, { connections, pipelining: 1 });
    const headers = token ? { 'x-svc-token': token } : {};
    let next = 0;
    const worker = async () => {
      while (next < n) {
        next++;
        const { statusCode, body } = await pool.request({ method: 'GET', path, headers });
        const text = await body.text();
        if (statusCode !== 200) throw new Error(`GET ${path}: HTTP ${statusCode} ${text}`);
      }
    };
    const start = performance.now();
    try {
      await Promise.all(Array.from({ length: connections }, worker));
      return performance.now() - start;
    } finally {
      await pool.close();
    }
  },

  /**
   * Opens a fresh environment in `dir` with the options the product's store opens its own with: a copy,
   * which follows src/storage/lmdb-store.ts when those change.
   */
  lmdbOpen({ dir }) {
    db = open({
      path: dir,
      noSubdir: false,
      keyEncoding: 'binary',
      encoding: 'json',
      compression: { threshold: 2 ** 32 },
      remapChunks: true,
      overlappingSync: true,
      eventTurnBatching: false,
      ...(process.platform === 'linux' ? { mapSize: 2 ** 40 } : {}),
    });
    return true;
  },

  /**
   * Writes `count` copies of `record` (each with an ID and creation index of its own) under the keys the
   * product gives allocations (`allocs\0<CreateIndex, zero-padded>\0<ID>`), 1,000 to a transaction, and
   * waits for each transaction to be on disk before the next. Answers its CPU µs and wall ms.
   */
  async lmdbWrite({ record, count }) {
    const cpu = process.cpuUsage();
    const start = performance.now();
    for (let done = 0; done < count; done += PER_TRANSACTION) {
      const inThis = Math.min(PER_TRANSACTION, count - done);
      await db.childTransaction(() => {
        for (let i = 0; i < inThis; i++) {
          const index = ++written;
          const id = randomUUID();
          db.putSync(Buffer.from(`allocs\u0000${String(index).padStart(16, '0')}\u0000${id}`, 'utf8'), { ...record, ID: id, CreateIndex: index, ModifyIndex: index, AllocModifyIndex: index });
        }
      });
      await db.flushed;
    }
    return { cpuUs: cpuUs(cpu), ms: performance.now() - start };
  },

  async lmdbClose() {
    await db?.close();
    return true;
  },

  /**
   * Signs `count` distinct identity documents (untimed) with an RSA-2048 key, SHA-256 and PKCS#1 v1.5,
   * as the simulator signs an rsa2048 document's attributes.
   */
  rsaPrepare({ count }) {
    const keys = generateKeyPairSync('rsa', { modulusLength: 2048 });
    publicKey = keys.publicKey;
    signed = Array.from({ length: count }, (_, i) => {
      const document = Buffer.from(
        JSON.stringify({
          accountId: '123456789012',
          architecture: 'x86_64',
          availabilityZone: 'us-east-1a',
          imageId: 'ami-0abcdef1234567890',
          instanceId: `i-${randomUUID().replaceAll('-', '').slice(0, 17)}`,
          instanceType: 't3.micro',
          pendingTime: new Date(Date.now() - i * 1000).toISOString(),
          privateIp: `10.0.${(i >> 8) & 255}.${i & 255}`,
          region: 'us-east-1',
          version: '2017-09-30',
        }),
      );
      return { document, signature: sign('sha256', document, keys.privateKey) };
    });
    return signed.length;
  },

  /** Verifies every prepared signature once; answers the CPU µs and wall ms it took. */
  rsaVerify() {
    const cpu = process.cpuUsage();
    const start = performance.now();
    for (const { document, signature } of signed) {
      if (!verify('sha256', document, publicKey, signature)) throw new Error('a floor signature did not verify');
    }
    return { cpuUs: cpuUs(cpu), ms: performance.now() - start, n: signed.length };
  },
});
