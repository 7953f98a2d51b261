/**
 * The data directory lock, by both methods: a second holder in this process or another is refused and
 * named, a release or the holder's death frees the directory, and the pid file survives the ways a
 * process can leave it behind. Other processes load the module from an esbuild bundle made here.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import { once } from 'node:events';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DirInUseError, LOCK_FILE, lockDir, type DirLock, type LockMethod } from '../../src/storage/dir-lock.js';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

// The child locks the directory, says so, and then stays (`hold`) or lets its event loop run dry (`exit`).
const CHILD = `
const [bundle, dir, method, mode] = process.argv.slice(1);
require(bundle).lockDir(dir, { method }).then(
  () => {
    process.stdout.write('locked\\n');
    if (mode === 'hold') setInterval(() => {}, 1 << 30);
  },
  (err) => {
    process.stderr.write(String(err.message) + '\\n');
    process.exit(1);
  },
);
`;

let bundleDir: string;
let bundle: string;
beforeAll(async () => {
  bundleDir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-dir-lock-bundle-'));
  bundle = path.join(bundleDir, 'dir-lock.cjs');
  await build({
    entryPoints: [path.join(REPO, 'src/storage/dir-lock.ts')],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    outfile: bundle,
    logLevel: 'silent',
  });
});
afterAll(() => {
  fs.rmSync(bundleDir, { recursive: true, force: true });
});

let tmp: string;
let dir: string;
const locks: DirLock[] = [];
const children: ChildProcess[] = [];
beforeEach(() => {
  tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'svc-dir-lock-')));
  dir = path.join(tmp, 'data');
  fs.mkdirSync(dir);
});
afterEach(async () => {
  for (const child of children.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  for (const lock of locks.splice(0)) await lock.release();
  fs.rmSync(tmp, { recursive: true, force: true });
});

async function lock(d: string, method: LockMethod): Promise<DirLock> {
  const l = await lockDir(d, { method });
  locks.push(l);
  return l;
}

/** Starts a child that holds `d` by `method`; resolves once it has it. */
async function childHolding(d: string, method: LockMethod, mode: 'hold' | 'exit' = 'hold'): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['-e', CHILD, bundle, d, method, mode], { stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let stderr = '';
  child.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
  let stdout = '';
  child.stdout!.setEncoding('utf8');
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (chunk: string) => {
      stdout += chunk;
      if (stdout.includes('locked\n')) resolve();
    });
    child.on('exit', (code) => reject(new Error(`child exited (code ${code}) before locking: ${stderr}`)));
  });
  return child;
}

async function kill(child: ChildProcess): Promise<void> {
  const exited = once(child, 'exit');
  child.kill('SIGKILL');
  await exited;
}

const methods: LockMethod[] = process.platform === 'linux' ? ['abstract-socket', 'pid-file'] : ['pid-file'];

describe.each(methods)('%s', (method) => {
  it('refuses a second holder in the same process, naming our pid, until the first releases', async () => {
    const first = await lockDir(dir, { method });
    const second = lockDir(dir, { method });
    await expect(second).rejects.toBeInstanceOf(DirInUseError);
    await expect(second).rejects.toThrow(`${dir} is in use by another svc process (pid ${process.pid})`);
    await first.release();
    await lock(dir, method);
  });

  it('locks a different directory independently', async () => {
    const other = path.join(tmp, 'other');
    fs.mkdirSync(other);
    await lock(dir, method);
    await lock(other, method);
    await expect(lockDir(other, { method })).rejects.toBeInstanceOf(DirInUseError);
  });

  it('refuses while another process holds the directory, naming its pid, and is free once it is killed', async () => {
    const child = await childHolding(dir, method);
    await expect(lockDir(dir, { method })).rejects.toThrow(`${dir} is in use by another svc process (pid ${child.pid})`);
    await kill(child);
    await lock(dir, method);
  });

  it('keeps another process out while this one holds the directory', async () => {
    await lock(dir, method);
    const child = spawn(process.execPath, ['-e', CHILD, bundle, dir, method, 'exit'], { stdio: ['ignore', 'pipe', 'pipe'] });
    children.push(child);
    let stderr = '';
    child.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
    // 'close', not 'exit': it waits for stderr to drain.
    const [code] = await once(child, 'close');
    expect(code).toBe(1);
    expect(stderr).toBe(`${dir} is in use by another svc process (pid ${process.pid})\n`);
  });

  it('does not keep the process alive', async () => {
    const child = await childHolding(dir, method, 'exit');
    const [code] = child.exitCode === null ? await once(child, 'exit') : [child.exitCode];
    expect(code).toBe(0);
  });
});

describe.runIf(process.platform === 'linux')('abstract-socket', () => {
  const socketName = () => `\0svc-data-dir/${crypto.createHash('sha256').update(dir).digest('hex')}`;

  it('reports a holder that does not answer with a pid without one', async () => {
    const squatter = net.createServer(() => {});
    await new Promise<void>((resolve) => squatter.listen({ path: socketName() }, resolve));
    try {
      await expect(lockDir(dir, { method: 'abstract-socket' })).rejects.toThrow(new DirInUseError(dir));
    } finally {
      squatter.close();
    }
  });

  it('releases even while a connection to the holder stays open', async () => {
    const l = await lockDir(dir, { method: 'abstract-socket' });
    const peer = net.connect({ path: socketName(), allowHalfOpen: true });
    try {
      // The holder has accepted the connection once it has answered on it.
      await once(peer, 'data');
      await l.release();
    } finally {
      peer.destroy();
    }
    await lock(dir, 'abstract-socket');
  });
});

describe('pid-file', () => {
  const lockFile = () => path.join(dir, LOCK_FILE);

  it('holds our pid while locked and is removed on release', async () => {
    const l = await lockDir(dir, { method: 'pid-file' });
    expect(fs.readFileSync(lockFile(), 'utf8')).toBe(`${process.pid}\n`);
    await l.release();
    expect(fs.existsSync(lockFile())).toBe(false);
  });

  it('takes over the file of a killed process', async () => {
    const child = await childHolding(dir, 'pid-file');
    await kill(child);
    expect(fs.readFileSync(lockFile(), 'utf8')).toBe(`${child.pid}\n`);
    await lock(dir, 'pid-file');
    expect(fs.readFileSync(lockFile(), 'utf8')).toBe(`${process.pid}\n`);
  });

  it('takes over an unparsable file', async () => {
    fs.writeFileSync(lockFile(), 'not a pid');
    await lock(dir, 'pid-file');
    expect(fs.readFileSync(lockFile(), 'utf8')).toBe(`${process.pid}\n`);
  });

  it('takes over a file with our own pid that this process does not hold, as an earlier run with the same pid leaves', async () => {
    fs.writeFileSync(lockFile(), `${process.pid}\n`);
    await lock(dir, 'pid-file');
    await expect(lockDir(dir, { method: 'pid-file' })).rejects.toBeInstanceOf(DirInUseError);
  });

  it('leaves a file that holds another pid alone on release', async () => {
    const l = await lockDir(dir, { method: 'pid-file' });
    fs.writeFileSync(lockFile(), '12345\n');
    await l.release();
    expect(fs.readFileSync(lockFile(), 'utf8')).toBe('12345\n');
  });

  it('leaves no temporary files in the directory', async () => {
    await lock(dir, 'pid-file');
    await expect(lockDir(dir, { method: 'pid-file' })).rejects.toBeInstanceOf(DirInUseError);
    expect(fs.readdirSync(dir)).toEqual([LOCK_FILE]);
  });
});
