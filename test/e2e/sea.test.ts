/**
 * dist/svc-linux-x64, svc as one executable file (`npm run package`), on its own: copied alone into an
 * empty directory, with a PATH of that directory and the system's programs without node, and a HOME of
 * its own. Its first run unpacks what it carries into ~/.cache/svc/<version>-<hash>; from the unpacked
 * files a dev server loads its native bindings, its node runs tasks through the executor (which the
 * server starts as `process.execPath <script>`, here the executable itself), and the CLI drives it all:
 * job run, status, job status, alloc logs, and alloc exec -t in a pseudo-terminal.
 */
import { execFile, spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { copyFile, mkdir, readdir, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ExecDriver } from '../../src/client/drivers/exec.js';
import { VERSION } from '../../src/version.js';
import { REPO, makeTempDir, runProgram, type CliResult } from '../support/server.js';
import { startPty, type PtyRun } from '../support/exec-cli.js';
import { until } from '../support/wait.js';

const run = promisify(execFile);
const BUILT = path.join(REPO, 'dist/svc-linux-x64');
/** What the executable is made from: a build older than any of them is stale. */
const SOURCES = ['dist/main.cjs', 'scripts/package.mjs', 'src/sea/entry.ts', 'src/sea/unpack.ts'].map((f) => path.join(REPO, f));
/** node itself, and npm's programs, which are node scripts. */
const NODE_PROGRAMS = new Set(['node', 'nodejs', 'npm', 'npx', 'corepack']);
const execHost = await new ExecDriver().fingerprint();

let work: string;
/** the executable, alone in the first PATH directory */
let svcPath: string;
let env: Record<string, string>;
let server: ChildProcessWithoutNullStreams | undefined;
let serverOut = '';
const ptys: PtyRun[] = [];

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const mtime = async (file: string) => (await stat(file)).mtimeMs;

async function isFresh(): Promise<boolean> {
  try {
    const built = await mtime(BUILT);
    return (await Promise.all(SOURCES.map(mtime))).every((t) => t <= built);
  } catch {
    return false;
  }
}

/**
 * Packs the executable unless one newer than its sources is there. It packs the dist/ at hand, as the
 * other end-to-end tests run it (`npm run package` is the build of dist/, then this), so the suite does
 * not replace dist/ under the other test files once more.
 */
async function pack(): Promise<void> {
  if (!(await isFresh())) await run(process.execPath, ['scripts/package.mjs'], { cwd: REPO });
}

/**
 * A build of dist/ in another test file (test/e2e/rebuild.test.ts) replaces dist/ without the
 * executable, possibly while it is packed or copied: then `step` runs again.
 */
async function retried(step: () => Promise<void>): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await step();
    } catch (err) {
      if (attempt === 3) throw err;
    }
  }
}

/** A directory of links to every program in /usr/bin and /bin but node and npm's. */
async function systemProgramsWithoutNode(dir: string): Promise<void> {
  await mkdir(dir);
  const linked = new Set<string>();
  for (const from of ['/usr/bin', '/bin']) {
    for (const name of await readdir(from)) {
      if (NODE_PROGRAMS.has(name) || linked.has(name)) continue;
      linked.add(name);
      await symlink(path.join(from, name), path.join(dir, name));
    }
  }
}

function svc(args: string[], extraEnv: Record<string, string> = {}): Promise<CliResult> {
  return runProgram(svcPath, args, { ...env, ...extraEnv });
}

/** The unpacked build's directory: ~/.cache/svc/<version>-<hash>, the only entry there. */
async function unpackedDir(): Promise<string> {
  const base = path.join(env.HOME, '.cache/svc');
  const entries = await readdir(base);
  expect(entries).toHaveLength(1);
  expect(entries[0]).toMatch(new RegExp(`^${escape(VERSION)}-[0-9a-f]{16}$`));
  return path.join(base, entries[0]);
}

/** The files a process has mapped (its loaded native bindings among them). */
const mappedFiles = async (pid: number) => (await readFile(`/proc/${pid}/maps`, 'utf8')).split('\n').map((l) => l.split(/\s+/)[5] ?? '');

async function allocsOf(job: string): Promise<Array<{ ID: string; ClientStatus: string }>> {
  const r = await svc(['job', 'allocs', '-json', job]);
  if (r.code !== 0) throw new Error(r.stderr);
  return JSON.parse(r.stdout);
}

beforeAll(async () => {
  work = await makeTempDir('svc-sea-');
  await mkdir(path.join(work, 'bin'));
  await mkdir(path.join(work, 'home'));
  svcPath = path.join(work, 'bin/svc');
  await retried(async () => {
    await pack();
    await copyFile(BUILT, svcPath);
  });
  await systemProgramsWithoutNode(path.join(work, 'system'));
  env = { PATH: `${path.join(work, 'bin')}:${path.join(work, 'system')}`, HOME: path.join(work, 'home'), NO_COLOR: '1', TERM: 'xterm' };

  server = spawn(svcPath, ['server', '-dev', '-port=0', `-data-dir=${path.join(work, 'data')}`], { env });
  server.stderr.on('data', (d: Buffer) => (serverOut += d.toString()));
  const address = await new Promise<string>((resolve, reject) => {
    server!.stdout.on('data', (d: Buffer) => {
      serverOut += d.toString();
      const m = /Address: (\S+)[\s\S]*Root Token: \S+/.exec(serverOut);
      if (m) resolve(m[1]);
    });
    server!.on('exit', (code) => reject(new Error(`svc server exited with ${code}:\n${serverOut}`)));
  });
  // -dev wrote the root token to ~/.svc-token, where the CLI finds it.
  env.SVC_ADDR = address;
}, 180_000);

afterEach(() => {
  for (const p of ptys.splice(0)) p.kill();
});

afterAll(async () => {
  if (server && server.exitCode === null) {
    // -dev stops its tasks as it shuts down.
    const exited = new Promise((resolve) => server!.once('exit', resolve));
    server.kill('SIGTERM');
    await exited;
  }
  if (work) await rm(work, { recursive: true, force: true });
}, 30_000);

describe('the single executable, alone on PATH', () => {
  it('finds no node on its PATH, prints its version, and runs the server from its unpacked files', async () => {
    const which = await run('/bin/sh', ['-c', 'command -v node || echo none'], { env });
    expect(which.stdout.trim()).toBe('none');
    expect(await svc(['version'])).toEqual({ code: 0, stdout: `svc v${VERSION}\n`, stderr: '' });

    const dir = await unpackedDir();
    const mapped = await mappedFiles(server!.pid!);
    // lmdb and msgpackr-extract's bindings, for this Node's ABI, loaded from the unpacked packages
    expect(mapped.filter((f) => f.endsWith('.node')).every((f) => f.startsWith(`${dir}/node_modules/`))).toBe(true);
    expect(mapped.some((f) => f.startsWith(`${dir}/node_modules/@lmdb/`) && f.endsWith('.node'))).toBe(true);
    expect(mapped.some((f) => f.startsWith(`${dir}/node_modules/@msgpackr-extract/`) && f.endsWith('.node'))).toBe(true);
  });

  it('runs a batch raw_exec job to completion; the task executor is the executable itself', async () => {
    const jobFile = path.join(work, 'hello.nomad.hcl');
    await writeFile(
      jobFile,
      `job "sea-hello" {
  datacenters = ["*"]
  type        = "batch"
  group "g" {
    task "say" {
      driver = "raw_exec"
      config {
        command = "/bin/sh"
        args    = ["-c", "echo hello from one file; readlink /proc/$PPID/exe"]
      }
      resources {
        cpu    = 20
        memory = 16
      }
    }
  }
}
`,
    );
    const ran = await svc(['job', 'run', jobFile]);
    expect(ran, ran.stderr).toMatchObject({ code: 0, stderr: '' });
    expect(ran.stdout).toMatch(/Evaluation "[0-9a-f]{8}" finished with status "complete"/);

    const [alloc] = await until(() => allocsOf('sea-hello'), (l) => l.length === 1 && l[0].ClientStatus === 'complete', 'the allocation to complete');
    const status = await svc(['status']);
    expect(status).toMatchObject({ code: 0, stderr: '' });
    expect(status.stdout).toMatch(/^Sealed\s+false$/m);
    const jobStatus = await svc(['job', 'status', 'sea-hello']);
    expect(jobStatus).toMatchObject({ code: 0, stderr: '' });
    expect(jobStatus.stdout).toMatch(/^Status\s+= dead$/m);
    expect(jobStatus.stdout).toMatch(new RegExp(`^${alloc.ID.slice(0, 8)}\\s.*\\scomplete\\s`, 'm'));

    // The task's parent is the executor: the executable, started by the server with process.execPath.
    expect(await svc(['alloc', 'logs', alloc.ID.slice(0, 8)])).toEqual({ code: 0, stdout: `hello from one file\n${svcPath}\n`, stderr: '' });
  });

  it('alloc exec -t runs a shell in a pseudo-terminal, with node-pty loaded from the unpacked binding', async () => {
    const ran = await svc(['job', 'run', '-detach', await sleeperJob()]);
    expect(ran, ran.stderr).toMatchObject({ code: 0 });
    const [alloc] = await until(() => allocsOf('sea-sleep'), (l) => l.length === 1 && l[0].ClientStatus === 'running', 'the sleeper to run');

    const p = startPty(svcPath, ['alloc', 'exec', '-i', '-t', '-task', 'main', alloc.ID, '/bin/sh'], { cols: 90, rows: 30, env });
    ptys.push(p);
    p.write('tty; echo pty-$((6*7))\r');
    await p.waitForMatch(/\/dev\/pts\/\d+/);
    await p.waitFor('pty-42');
    p.write('exit\r');
    expect(await p.exited).toBe(0);

    const dir = await unpackedDir();
    expect(await mappedFiles(server!.pid!)).toContain(`${dir}/node_modules/@lydell/node-pty-linux-x64/pty.node`);
    expect(await svc(['job', 'stop', '-purge', 'sea-sleep'])).toMatchObject({ code: 0 });
  });

  it.runIf(execHost.healthy)('runs an exec driver task: the executor starts itself again, through the executable, as the namespace init', async () => {
    const jobFile = path.join(work, 'isolated.nomad.hcl');
    await writeFile(
      jobFile,
      `job "sea-isolated" {
  datacenters = ["*"]
  type        = "batch"
  group "g" {
    task "iso" {
      driver = "exec"
      config {
        command = "/bin/sh"
        args    = ["-c", "tr '\\\\0' ' ' < /proc/1/cmdline"]
      }
      resources {
        cpu    = 20
        memory = 16
      }
    }
  }
}
`,
    );
    expect(await svc(['job', 'run', jobFile])).toMatchObject({ code: 0, stderr: '' });
    const [alloc] = await until(() => allocsOf('sea-isolated'), (l) => l.length === 1 && l[0].ClientStatus === 'complete', 'the exec task to complete');
    const logs = await svc(['alloc', 'logs', alloc.ID]);
    expect(logs).toMatchObject({ code: 0, stderr: '' });
    expect(logs.stdout).toMatch(new RegExp(`^${escape(`${svcPath} ${await unpackedDir()}/dist/executor.cjs --init `)}\\S+ $`));
  });
});

describe('the first run', () => {
  it('of several at once: each works, one directory results, and what a killed first run left is removed', async () => {
    const cache = path.join(work, 'cache');
    const built = path.basename(await unpackedDir());
    const abandoned = `.${built}.99999999.x1y2z3`;
    await mkdir(path.join(cache, 'svc', abandoned, 'dist'), { recursive: true });

    const runs = await Promise.all(Array.from({ length: 4 }, () => svc(['version'], { XDG_CACHE_HOME: cache })));
    for (const r of runs) expect(r).toEqual({ code: 0, stdout: `svc v${VERSION}\n`, stderr: '' });
    expect(await readdir(path.join(cache, 'svc'))).toEqual([built]);
    expect((await readdir(path.join(cache, 'svc', built))).sort()).toEqual(['dist', 'node_modules']);
  });

  it('that cannot write its cache says where, and what to do, in one line', async () => {
    const notADir = path.join(work, 'not-a-dir');
    await writeFile(notADir, '');
    const r = await svc(['version'], { XDG_CACHE_HOME: notADir });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(new RegExp(`^${escape(`Error: cannot unpack svc's files into ${notADir}/svc/${VERSION}-`)}[0-9a-f]{16}: .*ENOTDIR.*; set XDG_CACHE_HOME to a directory you can write to\\n$`));
  });
});

describe('dist/svc-linux-x64 in the checkout', () => {
  it('is left out of the npm package (package.json "files") and of git', async () => {
    await retried(pack);
    const { stdout } = await run('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: REPO });
    const packed = (JSON.parse(stdout) as Array<{ files: Array<{ path: string }> }>)[0].files.map((f) => f.path);
    expect(packed).toContain('dist/main.cjs');
    expect(packed).not.toContain('dist/svc-linux-x64');
    await run('git', ['check-ignore', '-q', 'dist/svc-linux-x64'], { cwd: REPO });
  });
});

/** A service job whose task sleeps: something to exec into. */
async function sleeperJob(): Promise<string> {
  const file = path.join(work, 'sleep.nomad.hcl');
  await writeFile(
    file,
    `job "sea-sleep" {
  datacenters = ["*"]
  group "g" {
    task "main" {
      driver = "raw_exec"
      config {
        command = "/bin/sh"
        args    = ["-c", "exec sleep 300"]
      }
      resources {
        cpu    = 20
        memory = 16
      }
    }
  }
}
`,
  );
  return file;
}
