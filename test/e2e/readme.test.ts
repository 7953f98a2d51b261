/**
 * The README's Quick start, as a newcomer follows it: every line of the code blocks marked
 * `<!-- walkthrough -->` is run in order from the checkout, each `svc` line through the built bin/svc,
 * against a real `svc server -dev -dev-cloud` (on a free port, with HOME and its temporary data dir in a
 * temp dir), with the environment the README's `export` lines set. Each line has a check of what the
 * README says it does; a walkthrough line without one, or a check whose line left the README, fails.
 * The install line is checked here only as far as the checkout goes: test/e2e/install.test.ts installs
 * the package globally.
 */
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, readFile, rm, symlink } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../../src/api/http/client.js';
import { makeTempDir, REPO, runCli, SVC_BIN, type CliResult } from '../support/server.js';
import { spawnServer, stopServer, type SpawnedServer } from '../support/spawn-server.js';
import { until } from '../support/wait.js';

const readme = readFileSync(path.join(REPO, 'README.md'), 'utf8');

/** Each line of the marked blocks: the command as typed, and the whole line with its comment. */
function walkthroughLines(text: string): Array<{ command: string; raw: string }> {
  const lines = text.split('\n');
  const out: Array<{ command: string; raw: string }> = [];
  for (let i = 0; i < lines.length; i++) {
    if (lines[i].trim() !== '<!-- walkthrough -->') continue;
    let j = i + 1;
    while (j < lines.length && lines[j].trim() === '') j++;
    for (; j < lines.length && lines[j].startsWith('    '); j++) {
      const raw = lines[j].slice(4);
      out.push({ command: commandOf(raw), raw });
    }
  }
  return out;
}

/** The line without its comment. */
function commandOf(raw: string): string {
  return raw.replace(/\s+#\s.*$/, '').trim();
}

/** Shell words, with single- and double-quoted parts unquoted (all the README's lines need). */
function words(command: string): string[] {
  return (command.match(/(?:[^\s'"]+|'[^']*'|"[^"]*")+/g) ?? []).map((w) => w.replace(/'([^']*)'|"([^"]*)"/g, '$1$2'));
}

const lines = walkthroughLines(readme);

let home: string;
let binDir: string;
let auditFile: string;
let server: SpawnedServer;
let root: ApiClient;
/** What the README's `export` lines set in the second terminal. */
const exported: Record<string, string> = {};
let loginToken = '';

const env = () => ({ HOME: home, NO_COLOR: '1', ...exported });
const svc = (args: string[]): Promise<CliResult> => runCli(args, env());

interface Job {
  Version: number;
  TaskGroups: Array<{ Count: number; Tasks: Array<{ Templates: Array<{ EmbeddedTmpl: string }> | null }> }>;
}
interface Alloc {
  ID: string;
  JobVersion: number;
  DesiredStatus: string;
  ClientStatus: string;
}

const job = async (id: string) => (await root.scheduler<Job>('GET', `/v1/job/${id}`)).body;
const versions = async (id: string) => (await root.scheduler<{ Versions: Job[] }>('GET', `/v1/job/${id}/versions`)).body.Versions;
const runningAllocs = async (id: string) =>
  (await root.scheduler<Alloc[]>('GET', `/v1/job/${id}/allocations`)).body.filter((a) => a.DesiredStatus === 'run' && a.ClientStatus === 'running');
const template = (j: Job) => j.TaskGroups[0].Tasks[0].Templates?.[0]?.EmbeddedTmpl;

/**
 * What each walkthrough line must do, keyed by the command as the README has it. Lines that are not svc
 * commands say how they are checked; the rest get the result of running them.
 */
const checks: Record<string, (raw: string) => Promise<void>> = {
  'npm install && npm link': async () => {
    // npm runs `prepare` on install and link: it must be the build, so dist/ (what bin/svc runs) exists after.
    const manifest = JSON.parse(await readFile(path.join(REPO, 'package.json'), 'utf8')) as { bin: Record<string, string>; scripts: Record<string, string> };
    expect(manifest.scripts.prepare).toBe(manifest.scripts.build);
    expect(manifest.bin).toEqual({ svc: 'bin/svc' });
  },

  'svc server -dev -dev-cloud': async (raw) => {
    // On a free port, and with an audit log, which shows below which token submitted a job.
    server = await spawnServer([...words(commandOf(raw)).slice(2), '-port=0', `-audit-file=${auditFile}`], { HOME: home, TMPDIR: home });
    expect(server.rootToken).toMatch(/^svc\./);
    expect((await readFile(path.join(home, '.svc-token'), 'utf8')).trim()).toBe(server.rootToken);
    root = new ApiClient({ address: server.url, token: server.rootToken });
  },

  'man svc': async (raw) => {
    const pages = [...raw.matchAll(/\bman (svc[\w-]*)/g)].map((m) => m[1]);
    expect(pages.length).toBeGreaterThan(1);
    for (const page of pages) expect(existsSync(path.join(REPO, 'man/man1', `${page}.1`)), page).toBe(true);
    expect(readFileSync(path.join(REPO, 'man/man1/svc.1'), 'utf8')).toContain('job run');
  },

  'source <(svc completion bash)': async () => {
    const { stdout } = await promisify(execFile)('bash', ['-c', 'source <(svc completion bash) && complete -p svc'], {
      env: { ...env(), PATH: `${binDir}:${process.env.PATH}` },
    });
    expect(stdout).toMatch(/^complete .* svc$/m);
  },

  "export SVC_ADDR='http://127.0.0.1:4646'": async (raw) => exportFromBanner(raw),
  "export CLOUD_METADATA_ENDPOINT='http://127.0.0.1:<port>'": async (raw) => exportFromBanner(raw),

  'svc job run examples/jobs/web.nomad.hcl': async (raw) => {
    const res = await run(raw, 0);
    expect(res.stdout).toMatch(/Deployment "\w+" successful/);
    expect((await runningAllocs('web')).map((a) => a.JobVersion)).toEqual([0, 0]);
  },

  'svc alloc logs -job web': async (raw) => {
    expect((await run(raw, 0)).stdout).toMatch(/^Serving HTTP on \S+ port \d+/m);
  },

  'svc alloc exec -job web cat local/config.env': async (raw) => {
    expect((await run(raw, 0)).stdout).toMatch(/^GREETING=hello\nPORT=\d+\n$/);
  },

  'svc job scale web 3': async (raw) => {
    await run(raw, 0);
    expect((await job('web')).TaskGroups[0].Count).toBe(3);
    await until(() => runningAllocs('web'), (a) => a.length === 3, 'three running allocations of web');
  },

  'svc job plan -var greeting=hi examples/jobs/web.nomad.hcl': async (raw) => {
    const res = await run(raw, 1);
    expect(res.stdout).toContain('+/- Count: "3" => "2"');
    expect(res.stdout).toMatch(/EmbeddedTmpl: +"GREETING=hello\\n.*" => "GREETING=hi\\n/);
    expect(res.stdout).toContain('All tasks successfully allocated.');
    expect((await versions('web')).length, 'a plan changes nothing').toBe(2);
  },

  'svc job run -var greeting=hi examples/jobs/web.nomad.hcl': async (raw) => {
    expect((await run(raw, 0)).stdout).toMatch(/Deployment "\w+" successful/);
    const now = await job('web');
    expect({ version: now.Version, count: now.TaskGroups[0].Count }).toEqual({ version: 2, count: 2 });
    expect(template(now)).toMatch(/^GREETING=hi\n/);
  },

  'svc job history web': async (raw) => {
    expect([...(await run(raw, 0)).stdout.matchAll(/^Version += (\d+)$/gm)].map((m) => m[1])).toEqual(['2', '1', '0']);
  },

  'svc job revert web 1': async (raw) => {
    await run(raw, 0);
    const all = await versions('web');
    const [now, one] = [all.find((v) => v.Version === 3), all.find((v) => v.Version === 1)];
    expect(now, 'the revert is version 3').toBeDefined();
    expect(now!.TaskGroups).toEqual(one!.TaskGroups);
    expect(template(now!)).toMatch(/^GREETING=hello\n/);
    await until(() => runningAllocs('web'), (a) => a.some((x) => x.JobVersion === 3), 'a running allocation of version 3');
  },

  'svc policy write ci-deploy examples/policies/ci-deploy.hcl': async (raw) => {
    expect((await run(raw, 0)).stdout).toBe('Success! Uploaded policy: ci-deploy\n');
  },

  'svc write auth/cloud/role/dev-ec2 token_policies=ci-deploy': async (raw) => {
    await run(raw, 0);
    const role = (await root.secrets('GET', 'auth/cloud/role/dev-ec2'))!.data!;
    expect(role).toMatchObject({ auth_type: 'ec2', token_policies: ['ci-deploy'], bound_account_id: [expect.stringMatching(/^\d{12}$/)] });
  },

  'svc login -method=cloud type=ec2 role=dev-ec2': async (raw) => {
    const res = await run(raw, 0);
    loginToken = /^token +(\S+)$/m.exec(res.stdout)?.[1] ?? '';
    expect(loginToken).toMatch(/^svc\./);
    expect(loginToken).not.toBe(server.rootToken);
    expect((await readFile(path.join(home, '.svc-token'), 'utf8')).trim()).toBe(loginToken);
    const self = (await new ApiClient({ address: server.url, token: loginToken }).secrets('GET', 'auth/token/lookup-self'))!.data!;
    expect(self.policies).toEqual(['ci-deploy', 'default']);
  },

  'svc job run examples/jobs/hello.nomad.hcl': async (raw) => {
    await run(raw, 0);
    // Every job submission the audit log saw, by token: the last is hello's, with the login's token.
    const hash = (await root.secrets('POST', 'sys/audit-hash/file', { body: { input: loginToken } }))!.data!.hash;
    const submitters = (await readFile(auditFile, 'utf8'))
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { type: string; auth: { client_token?: string }; request: { path: string; operation: string } })
      .filter((l) => l.type === 'request' && l.request.path === 'jobs' && l.request.operation === 'update')
      .map((l) => l.auth.client_token);
    expect(submitters.at(-1)).toBe(hash);
    expect(submitters.filter((t) => t === hash)).toHaveLength(1);
    expect((await job('hello')).Version).toBe(0);
  },

  'svc alloc logs -job hello': async (raw) => {
    const res = await until(() => run(raw, 0), (r) => r.stdout.includes('hello from hello in alloc '), "hello's output");
    expect(res.stdout).toMatch(/^hello from hello in alloc [0-9a-f-]{36}\n$/);
  },
};

/** Runs an svc line through bin/svc; a README placeholder left in it is a mistake of the README. */
async function run(raw: string, code: number): Promise<CliResult> {
  const command = commandOf(raw);
  expect(command, 'a walkthrough line runs as written: no placeholders').not.toMatch(/<[\w-]+>/);
  const [bin, ...args] = words(command);
  expect(bin).toBe('svc');
  const res = await svc(args);
  expect(res.code, `${command}\n${res.stdout}\n${res.stderr}`).toBe(code);
  return res;
}

/** An `export` line of the README: the banner printed the same line (a port may differ); its value is used. */
async function exportFromBanner(raw: string) {
  const [, name, value] = /^export (\w+)='([^']*)'/.exec(raw)!;
  const banner = new RegExp(`^ {4}export ${name}='([^']*)'$`, 'm').exec(server.stdout())?.[1];
  expect(banner, `the banner's export line for ${name}`).toBeDefined();
  const shape = value.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/:(\d+|<port>)/, ':\\d+');
  expect(banner).toMatch(new RegExp(`^${shape}$`));
  exported[name] = banner!;
}

beforeAll(async () => {
  home = await makeTempDir('svc-readme-');
  auditFile = path.join(home, 'audit.log');
  binDir = path.join(home, 'bin');
  await mkdir(binDir);
  await symlink(SVC_BIN, path.join(binDir, 'svc'));
});

afterAll(async () => {
  await stopServer(server);
  await rm(home, { recursive: true, force: true });
}, 60_000);

describe('README Quick start', () => {
  it('marks the walkthrough, and every check is for one of its lines', () => {
    expect(lines.length).toBeGreaterThan(10);
    const commands = lines.map((l) => l.command);
    expect(Object.keys(checks).filter((c) => !commands.includes(c)), 'checks for lines no longer in the README').toEqual([]);
  });

  for (const { command, raw } of lines) {
    it(command, async () => {
      const check = Object.hasOwn(checks, command) ? checks[command] : undefined;
      expect(check, 'every walkthrough line needs a check in test/e2e/readme.test.ts').toBeDefined();
      await check!(raw);
    }, 180_000);
  }
});
