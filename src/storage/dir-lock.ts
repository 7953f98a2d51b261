/**
 * Exclusive hold of a data directory by one process. The store keeps state in process memory and the
 * server that opened it acts as the only leader, so a second process on the same directory would
 * diverge from the first instead of merely contending with it.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { errCode } from './private-file.js';

export interface DirLock {
  release(): Promise<void>;
}

export type LockMethod = 'abstract-socket' | 'pid-file';

export class DirInUseError extends Error {
  constructor(
    readonly dir: string,
    readonly pid?: number,
  ) {
    super(`${dir} is in use by another svc process${pid === undefined ? '' : ` (pid ${pid})`}`);
  }
}

/** The file that names the holder where there are no abstract sockets; it lives in the directory it locks. */
export const LOCK_FILE = 'svc.lock';

/** Long enough for a busy holder to answer, short enough that a holder that never does cannot stall a start. */
const ASK_PID_TIMEOUT_MS = 1000;

/**
 * Holds `dir` (an existing directory, already realpath'd by the caller) for this process until release();
 * rejects with DirInUseError when another holder (this process or another) has it. `method` exists so
 * tests can exercise the pid file on Linux too.
 */
export async function lockDir(dir: string, options: { method?: LockMethod } = {}): Promise<DirLock> {
  const method = options.method ?? (process.platform === 'linux' ? 'abstract-socket' : 'pid-file');
  return method === 'abstract-socket' ? lockBySocket(dir) : lockByPidFile(dir);
}

/*
 * Linux: a name in the abstract socket namespace. Binding it is atomic and the kernel frees it when the
 * process dies, however it dies, so there is no stale lock to clean up and no window between check and take.
 */

async function lockBySocket(dir: string): Promise<DirLock> {
  const name = `\0svc-data-dir/${crypto.createHash('sha256').update(dir).digest('hex')}`;
  const peers = new Set<net.Socket>();
  const server = net.createServer((peer) => {
    peers.add(peer);
    peer.on('close', () => peers.delete(peer));
    // A peer that hangs up before reading must not crash the holder.
    peer.on('error', () => {});
    peer.end(`${process.pid}\n`);
  });
  try {
    await listen(server, name);
  } catch (err) {
    if (errCode(err) === 'EADDRINUSE') throw new DirInUseError(dir, await askHolderPid(name));
    throw err;
  }
  // The lock lasts as long as the process; it must not be what keeps the process running.
  server.unref();
  return {
    release: () =>
      new Promise<void>((resolve) => {
        if (!server.listening) return resolve();
        server.close(() => resolve());
        // Abstract sockets have no permissions, so any local process can connect; one that never hangs up
        // must not hold up the release.
        for (const peer of peers) peer.destroy();
      }),
  };
}

function listen(server: net.Server, name: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen({ path: name }, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

/** The pid the holder answers with, or undefined when it does not answer with one (it may not be svc). */
function askHolderPid(name: string): Promise<number | undefined> {
  return new Promise((resolve) => {
    const socket = net.connect({ path: name });
    let text = '';
    socket.setEncoding('utf8');
    socket.setTimeout(ASK_PID_TIMEOUT_MS, () => socket.destroy());
    socket.on('data', (chunk: string) => {
      text += chunk;
      if (text.length > 32) socket.destroy();
    });
    socket.on('error', () => {});
    socket.on('close', () => resolve(parsePid(text)));
  });
}

/*
 * Elsewhere: a file in the directory holding the holder's pid. A process can die without removing it, so a
 * file whose pid is not running is taken over. Two processes that find the same stale file at the same
 * moment can both take it over: without flock() there is no atomic compare-and-remove of a file.
 */

/** Lock files this process holds, by path: tells our own lock from one left by an earlier run with our pid. */
const heldHere = new Set<string>();

async function lockByPidFile(dir: string): Promise<DirLock> {
  const file = path.join(dir, LOCK_FILE);
  if (!(await createLockFile(file))) {
    const holder = await readHolder(file);
    if (holder !== undefined && isLive(holder, file)) throw new DirInUseError(dir, holder);
    await fs.promises.rm(file, { force: true });
    if (!(await createLockFile(file))) throw new DirInUseError(dir, await readHolder(file));
  }
  heldHere.add(file);
  return {
    release: async () => {
      heldHere.delete(file);
      // Someone may have judged us dead and taken the file over; theirs is not ours to remove.
      if ((await readHolder(file)) === process.pid) await fs.promises.rm(file, { force: true });
    },
  };
}

/**
 * Creates `file` holding our pid; false when it exists. The pid is written to a temporary file first and
 * linked into place, so the lock file never exists without its pid: a competitor reading it half-written
 * would take it for garbage and take it over.
 */
async function createLockFile(file: string): Promise<boolean> {
  const text = `${process.pid}\n`;
  const tmp = `${file}.${process.pid}-${crypto.randomBytes(4).toString('hex')}`;
  try {
    await fs.promises.writeFile(tmp, text, { flag: 'wx' });
    await fs.promises.link(tmp, file);
    return true;
  } catch (err) {
    const code = errCode(err);
    if (code === 'EEXIST') return false;
    // Some file systems have no hard links; there the file is briefly empty after it is created.
    if (code === 'EPERM' || code === 'ENOTSUP' || code === 'EOPNOTSUPP' || code === 'ENOSYS') return createDirectly(file, text);
    throw err;
  } finally {
    await fs.promises.rm(tmp, { force: true });
  }
}

async function createDirectly(file: string, text: string): Promise<boolean> {
  try {
    await fs.promises.writeFile(file, text, { flag: 'wx' });
    return true;
  } catch (err) {
    if (errCode(err) === 'EEXIST') return false;
    throw err;
  }
}

/** The pid in the lock file; undefined when the file is gone or does not hold one. */
async function readHolder(file: string): Promise<number | undefined> {
  try {
    return parsePid(await fs.promises.readFile(file, 'utf8'));
  } catch (err) {
    if (errCode(err) === 'ENOENT') return undefined;
    throw err;
  }
}

function isLive(pid: number, file: string): boolean {
  // A process started at boot or as a container's pid 1 can get the pid its crashed predecessor had;
  // that pid is running (it is us) but the file is still stale.
  if (pid === process.pid) return heldHere.has(file);
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: the process exists but belongs to another user.
    return errCode(err) !== 'ESRCH';
  }
}

function parsePid(text: string): number | undefined {
  const m = /^([1-9]\d{0,9})\n?$/.exec(text);
  return m ? Number(m[1]) : undefined;
}
