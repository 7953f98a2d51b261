// Several `bin/svc server`s sharing one PostgreSQL database, for bench/sim.mjs: a private PostgreSQL (the
// tests' own, bench/sim-postgres.ts), a first server that makes the keyring and prints the root token, and
// the others each started with a copy of the keyring in a data directory of its own. It watches every
// server's output for the line a server logs when it takes the lead.
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { chmod, copyFile, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { bundleBenchScript, wallNow } from './lib.mjs';

const LEADS = /this server leads the cluster \(term (\d+)\)/g;
/** What a server that does not stop after SIGTERM is given before SIGKILL. */
const STOP_WITHIN_MS = 30_000;
/** Of each server's output, what is kept to show when it fails. */
const KEEP_CHARS = 16_000;

/**
 * Starts `node bin/svc server args...` (with BENCH_SERVER_NODE_ARGS first, for profiling) and adds it to
 * `servers` at once; resolves once it prints its address (and, with `withToken`, the root token of a new
 * cluster). `onLead(server, term)` runs each time it logs that it leads.
 */
function spawnServer(bin, env, name, args, { servers, withToken, onLead }) {
  const nodeArgs = process.env.BENCH_SERVER_NODE_ARGS ? process.env.BENCH_SERVER_NODE_ARGS.split(' ') : [];
  const child = spawn(process.execPath, [...nodeArgs, bin, 'server', ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  const server = { name, pid: child.pid, url: undefined, token: undefined, alive: true, output: '' };
  servers.push(server);
  server.exited = new Promise((resolve) =>
    child.on('close', (code, signal) => {
      server.alive = false;
      resolve({ code, signal });
    }),
  );
  server.kill = (signal) => {
    if (server.alive) child.kill(signal);
  };
  server.stop = async () => {
    if (!server.alive) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), STOP_WITHIN_MS);
    await server.exited;
    clearTimeout(timer);
  };
  // A line may arrive in two chunks: each search covers the end of what came before.
  let tail = '';
  const read = (d) => {
    const text = tail + d;
    server.output = (server.output + d).slice(-KEEP_CHARS);
    for (const m of text.matchAll(LEADS)) if (m.index + m[0].length > tail.length) onLead(server, Number(m[1]));
    tail = text.slice(-200);
  };
  child.stderr.setEncoding('utf8').on('data', read);
  child.stdout.setEncoding('utf8').on('data', read);
  return new Promise((resolve, reject) => {
    const banner = () => {
      server.url ??= /Address: (http:\/\/\S+)/.exec(server.output)?.[1];
      server.token ??= /Root Token: (\S+)/.exec(server.output)?.[1];
      if (server.url && (server.token || !withToken)) {
        child.stdout.off('data', banner);
        resolve(server);
      }
    };
    child.stdout.on('data', banner);
    server.exited.then(({ code, signal }) => reject(new Error(`svc server ${name} exited (${signal ?? code}) before it listened:\n${server.output}`)));
  });
}

/** The process id of the PostgreSQL server (postmaster) whose data directory is under `dir`. Linux. */
function postmasterOf(dir) {
  const wanted = `-D\0${path.join(dir, 'data')}\0`;
  for (const pid of readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    try {
      if (readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(wanted)) return Number(pid);
    } catch {
      // gone while we looked
    }
  }
  throw new Error(`no PostgreSQL process runs on ${dir}`);
}

/**
 * Starts PostgreSQL and `count` servers on one database. Answers { servers, token, postgresPid, leader(),
 * nextLeader(), stop() }: leader() is the live server that took the lead last; nextLeader(term) resolves
 * with the first { server, term, at } (at: wall-clock ms its line was read) of a term after `term`.
 */
export async function startPgCluster({ bin, env, count }) {
  const { dir: bundleDir, script } = await bundleBenchScript('sim-postgres');
  const work = await mkdtemp(path.join(tmpdir(), 'svc-sim-'));
  const leads = [];
  let waiting = [];
  const onLead = (server, term) => {
    const lead = { server, term, at: wallNow() };
    leads.push(lead);
    waiting = waiting.filter((w) => (term > w.after ? (w.resolve(lead), false) : true));
  };
  const cluster = {
    servers: [],
    token: undefined,
    postgres: undefined,
    leader: () => leads.filter((l) => l.server.alive).sort((a, b) => b.term - a.term)[0],
    nextLeader: (after) => {
      const known = leads.find((l) => l.term > after);
      return known ? Promise.resolve(known) : new Promise((resolve) => waiting.push({ after, resolve }));
    },
    async stop() {
      process.off('SIGINT', interrupted).off('SIGTERM', interrupted);
      await Promise.all(cluster.servers.map((s) => s.stop()));
      await cluster.postgres?.stop();
      await rm(work, { recursive: true, force: true });
      await rm(bundleDir, { recursive: true, force: true });
    },
  };
  // Interrupted (Ctrl-C, or a SIGTERM to the bench alone): the servers go with the bench, and PostgreSQL
  // stops when the bench's end of its pipe closes (test/support/postgres.ts).
  const interrupted = (signal) => {
    for (const s of cluster.servers) s.kill('SIGKILL');
    for (const dir of [work, bundleDir]) rmSync(dir, { recursive: true, force: true });
    process.exit(signal === 'SIGINT' ? 130 : 143);
  };
  process.once('SIGINT', interrupted).once('SIGTERM', interrupted);
  try {
    const { startPostgres, createDatabase } = await import(script);
    // Room for the shared state's working set; commits stay durable (fsync on), as the product promises.
    cluster.postgres = await startPostgres({ settings: { shared_buffers: '256MB', max_connections: 100 } });
    cluster.postgresPid = postmasterOf(cluster.postgres.dir);
    const storageUrl = await createDatabase(cluster.postgres.url, 'svc_sim');
    const dataDir = (i) => path.join(work, `server-${i + 1}`);
    const start = (i) => spawnServer(bin, env, `server-${i + 1}`, ['-data-dir', dataDir(i), '-storage-url', storageUrl, '-port=0', '-client=false'], { servers: cluster.servers, withToken: i === 0, onLead });
    cluster.token = (await start(0)).token;
    for (let i = 1; i < count; i++) {
      await mkdir(dataDir(i), { recursive: true, mode: 0o700 });
      const keyring = path.join(dataDir(i), 'keyring.json');
      await copyFile(path.join(dataDir(0), 'keyring.json'), keyring);
      await chmod(keyring, 0o600);
      await start(i);
    }
    await cluster.nextLeader(0);
    return cluster;
  } catch (err) {
    await cluster.stop();
    throw err;
  }
}
