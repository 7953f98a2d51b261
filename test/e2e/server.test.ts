/**
 * `svc server` as users run it: the built bin/svc in a child process, its banner, its token file, its
 * data dir across restarts, its signals and its configuration files.
 */
import { existsSync } from 'node:fs';
import { readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../../src/api/http/client.js';
import { makeTempDir, runCli } from '../support/server.js';
import { running, spawnServer, type SpawnedServer } from '../support/spawn-server.js';
import { freePort } from '../support/free-port.js';

const startSvc = spawnServer;

/** Runs `bin/svc server ...` expecting it to fail at start-up. */
async function failingStart(args: string[], env: Record<string, string>) {
  return runCli(['server', ...args], env);
}

async function stop(proc: SpawnedServer, signal: NodeJS.Signals = 'SIGTERM') {
  proc.child.kill(signal);
  return proc.exited;
}

async function lookupSelf(url: string, token: string) {
  return new ApiClient({ address: url, token }).secrets('GET', 'auth/token/lookup-self');
}


let home: string;
let work: string;

beforeAll(async () => {
  home = await makeTempDir('svc-e2e-home-');
  work = await makeTempDir('svc-e2e-work-');
});

afterEach(() => {
  // A failed assertion must not leave a server behind to hold the data dir or a port.
  for (const child of running) child.kill('SIGKILL');
});

afterAll(async () => {
  await rm(home, { recursive: true, force: true });
  await rm(work, { recursive: true, force: true });
});

describe('svc server -dev', () => {
  it('prints a root token, writes it to ~/.svc-token (0600), and the CLI then works with no SVC_TOKEN', async () => {
    const proc = await startSvc(['-dev', '-port=0'], { HOME: home });
    try {
      expect(proc.rootToken).toBeTruthy();
      expect(proc.stdout()).toContain(`export SVC_ADDR='${proc.url}'`);
      const file = path.join(home, '.svc-token');
      expect((await readFile(file, 'utf8')).trim()).toBe(proc.rootToken);
      expect((await stat(file)).mode & 0o777).toBe(0o600);

      const lookup = await runCli(['token', 'lookup', '-format=json'], { HOME: home, SVC_ADDR: proc.url, NO_COLOR: '1' });
      expect(lookup.stderr).toBe('');
      expect(lookup.code).toBe(0);
      expect(JSON.parse(lookup.stdout).data.policies).toEqual(['root']);

      const elsewhere = await runCli(['token', 'lookup'], { HOME: work, SVC_ADDR: proc.url, NO_COLOR: '1' });
      expect(elsewhere.code).toBe(2);
      // The cloud auth method is mounted at its usual path, ready to configure.
      const auths = await runCli(['auth', 'list', '-format=json'], { HOME: home, SVC_ADDR: proc.url, NO_COLOR: '1' });
      expect(JSON.parse(auths.stdout)['cloud/']).toMatchObject({ type: 'cloud' });
    } finally {
      expect(await stop(proc)).toEqual({ code: 0, signal: null });
    }
  });

  it('names its node and its drivers in the banner; -node, -dc, -meta and -client=false shape the node', async () => {
    const proc = await startSvc(['-dev', '-port=0', '-node=n1', '-dc=east', '-meta=rack=r7'], { HOME: home });
    try {
      expect(proc.stdout()).toMatch(/\n {16}Node: n1 \([0-9a-f]{8}\), datacenter east, drivers: [a-z_, ]*raw_exec/);
      const nodes = await runCli(['node', 'status', '-json'], { HOME: home, SVC_ADDR: proc.url, NO_COLOR: '1' });
      const [node] = JSON.parse(nodes.stdout) as Array<{ ID: string; Name: string; Datacenter: string }>;
      expect(node).toMatchObject({ Name: 'n1', Datacenter: 'east' });
      const full = await runCli(['node', 'status', '-json', node.ID], { HOME: home, SVC_ADDR: proc.url, NO_COLOR: '1' });
      expect(JSON.parse(full.stdout).Meta).toEqual({ rack: 'r7' });
    } finally {
      await stop(proc);
    }
    const bare = await startSvc(['-dev', '-port=0', '-client=false'], { HOME: home });
    try {
      expect(bare.stdout()).not.toContain('Node:');
      const nodes = await runCli(['node', 'status', '-json'], { HOME: home, SVC_ADDR: bare.url, NO_COLOR: '1' });
      expect(JSON.parse(nodes.stdout)).toEqual([]);
    } finally {
      await stop(bare);
    }
  });

  it('-dev-root-token-id sets the root token', async () => {
    const proc = await startSvc(['-dev', '-port=0', '-dev-root-token-id=my-dev-root'], { HOME: home });
    try {
      expect(proc.rootToken).toBe('my-dev-root');
      expect((await lookupSelf(proc.url, 'my-dev-root'))?.data?.policies).toEqual(['root']);
    } finally {
      await stop(proc);
    }
  });
});

describe('svc server with a data dir', () => {
  it('initialises once, prints the root token only then, and keeps it across restarts (SIGINT and SIGTERM)', async () => {
    const dataDir = path.join(work, 'persistent');
    const ownHome = await makeTempDir('svc-e2e-home-');
    const first = await startSvc([`-data-dir=${dataDir}`, '-port=0'], { HOME: ownHome });
    const root = first.rootToken!;
    expect(root).toBeTruthy();
    expect(first.stdout()).toContain('shown ONCE');
    // Only -dev writes the token file: a real server's root token must not land on disk unasked.
    expect(existsSync(path.join(ownHome, '.svc-token'))).toBe(false);
    expect((await lookupSelf(first.url, root))?.data?.policies).toEqual(['root']);
    const policy = await new ApiClient({ address: first.url, token: root }).secrets('PUT', 'sys/policies/acl/kept', {
      body: { policy: 'path "sys/health" { capabilities = ["read"] }' },
    });
    expect(policy).toBeUndefined();
    expect(await stop(first, 'SIGINT')).toEqual({ code: 0, signal: null });
    expect(first.stdout()).toContain('Caught SIGINT');

    const second = await startSvc([`-data-dir=${dataDir}`, '-port=0'], { HOME: home });
    expect((await lookupSelf(second.url, root))?.data?.policies).toEqual(['root']);
    const kept = await new ApiClient({ address: second.url, token: root }).secrets('GET', 'sys/policies/acl/kept');
    expect(kept?.data?.policy).toContain('sys/health');
    expect(await stop(second, 'SIGTERM')).toEqual({ code: 0, signal: null });
    expect(second.stdout()).toContain('Caught SIGTERM');
    expect(second.stdout()).not.toContain('Root Token');

    // A third start proves the SIGTERM shutdown closed the store cleanly.
    const third = await startSvc([`-data-dir=${dataDir}`, '-port=0'], { HOME: home });
    expect((await lookupSelf(third.url, root))?.data?.policies).toEqual(['root']);
    await stop(third);
    expect(third.stdout()).not.toContain('Root Token');
    await rm(ownHome, { recursive: true, force: true });
  });

  it('refuses a data dir that is a regular file, saying so', async () => {
    const file = path.join(work, 'not-a-dir');
    await writeFile(file, 'hello');
    const result = await failingStart([`-data-dir=${file}`, '-port=0'], { HOME: home });
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain('Error starting server');
    expect(result.stderr).toContain(file);
    expect(await readFile(file, 'utf8')).toBe('hello');
  });

  it('refuses a data dir another server has open, naming its pid; once that one is killed, the dir starts again', async () => {
    const dataDir = path.join(work, 'held');
    const first = await startSvc([`-data-dir=${dataDir}`, '-port=0'], { HOME: home });
    let killed = false;
    try {
      const result = await failingStart([`-data-dir=${dataDir}`, '-port=0'], { HOME: home });
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(`another svc process (pid ${first.child.pid}) has it open`);
      await stop(first, 'SIGKILL');
      killed = true;
      const again = await startSvc([`-data-dir=${dataDir}`, '-port=0'], { HOME: home });
      await stop(again);
    } finally {
      if (!killed) await stop(first);
    }
  });

  it('refuses to start without -dev or a data dir', async () => {
    const result = await failingStart(['-port=0'], { HOME: home });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('a data dir is required without -dev');
  });

  it('reports a port already in use', async () => {
    const proc = await startSvc(['-dev', '-port=0'], { HOME: home });
    try {
      const port = new URL(proc.url).port;
      const result = await failingStart(['-dev', `-port=${port}`], { HOME: work });
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(`cannot listen on 127.0.0.1:${port}`);
    } finally {
      await stop(proc);
    }
  });
});

describe('svc status', () => {
  it('answers 0 and shows the health of a running server', async () => {
    const proc = await startSvc(['-dev', '-port=0'], { HOME: home });
    try {
      const result = await runCli(['status'], { HOME: work, SVC_ADDR: proc.url, NO_COLOR: '1' });
      expect(result.code).toBe(0);
      expect(result.stdout).toMatch(/^Initialized\s+true$/m);
      expect(result.stdout).toMatch(/^Sealed\s+false$/m);
    } finally {
      await stop(proc);
    }
  });

  it('exits 1 naming the address when nothing listens there', async () => {
    const port = await freePort();
    const address = `http://127.0.0.1:${port}`;
    const result = await runCli(['status', `-address=${address}`], { HOME: work, NO_COLOR: '1' });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(address);
    expect(result.stdout).toBe('');
  });
});

describe('svc server -config', () => {
  async function configuredStart(name: string, text: (dir: string, port: number) => string) {
    const dataDir = path.join(work, `config-${name}`);
    const port = await freePort();
    const file = path.join(work, name);
    await writeFile(file, text(dataDir, port));
    const proc = await startSvc([`-config=${file}`], { HOME: home });
    try {
      expect(proc.url).toBe(`http://127.0.0.1:${port}`);
      expect(proc.stdout()).toContain(`Data dir: ${dataDir}`);
      expect(proc.rootToken).toBeTruthy();
      expect((await lookupSelf(proc.url, proc.rootToken!))?.data?.policies).toEqual(['root']);
      expect((await readdir(dataDir)).length).toBeGreaterThan(0);
    } finally {
      expect(await stop(proc)).toEqual({ code: 0, signal: null });
    }
    return proc;
  }

  it('honours port, data_dir and log_level from an HCL file', async () => {
    const proc = await configuredStart('server.hcl', (dir, port) => `data_dir  = "${dir}"\nport      = ${port}\nlog_level = "error"\n`);
    expect(proc.stderr()).not.toMatch(/\[(INFO|DEBUG|TRACE|WARN)\]/);
  });

  it('honours port, data_dir and log_level from a YAML file', async () => {
    const proc = await configuredStart('server.yaml', (dir, port) => `data_dir: ${dir}\nport: ${port}\nlog_level: warn\n`);
    expect(proc.stderr()).not.toMatch(/\[(INFO|DEBUG|TRACE)\]/);
  });

  it('without a log_level the server logs its start at INFO, which the two tests above must not see', async () => {
    const dataDir = path.join(work, 'config-default-level');
    const file = path.join(work, 'default-level.hcl');
    await writeFile(file, `data_dir = "${dataDir}"\nport = 0\n`);
    const proc = await startSvc([`-config=${file}`], { HOME: home });
    await stop(proc);
    expect(proc.stderr()).toMatch(/\[INFO\]/);
  });

  it('flags win over the file', async () => {
    const dataDir = path.join(work, 'config-flags');
    const file = path.join(work, 'flags.hcl');
    await writeFile(file, `data_dir = "${dataDir}"\nport = 1\n`);
    const proc = await startSvc([`-config=${file}`, '-port=0'], { HOME: home });
    expect(new URL(proc.url).port).not.toBe('1');
    await stop(proc);
  });

  it('an unknown key fails clearly, naming the key and the file', async () => {
    const file = path.join(work, 'unknown.hcl');
    await writeFile(file, `data_dir = "${path.join(work, 'never')}"\nlisten_port = 4646\n`);
    const result = await failingStart([`-config=${file}`], { HOME: home });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('unknown setting "listen_port"');
    expect(result.stderr).toContain(file);
    expect(existsSync(path.join(work, 'never'))).toBe(false);
  });

  it('a bad value or an unparsable file fails clearly', async () => {
    const badLevel = path.join(work, 'level.yaml');
    await writeFile(badLevel, `data_dir: ${path.join(work, 'never')}\nlog_level: loud\n`);
    const level = await failingStart([`-config=${badLevel}`], { HOME: home });
    expect(level.code).toBe(1);
    expect(level.stderr).toContain('"log_level" must be one of');

    const broken = path.join(work, 'broken.hcl');
    await writeFile(broken, 'data_dir = \n');
    const parse = await failingStart([`-config=${broken}`], { HOME: home });
    expect(parse.code).toBe(1);
    expect(parse.stderr).toContain(`cannot parse config file ${broken}`);

    const missing = await failingStart([`-config=${path.join(work, 'missing.hcl')}`], { HOME: home });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('cannot read config file');
  });
});
