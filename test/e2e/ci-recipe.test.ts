/**
 * The CI recipe of the README, examples/ci/deploy.sh, run as a CI runner runs it: bash with no terminal
 * and no stdin, `svc` (bin/svc) on PATH, a fresh HOME, free ports. It starts `svc server -dev -dev-cloud`,
 * logs in with the simulated instance's cloud identity, deploys a job with that token, checks the exit
 * codes and stops the server; a job that cannot be placed fails the script.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTempDir, REPO, runCli, SVC_BIN } from '../support/server.js';
import { freePort } from '../support/free-port.js';

const RECIPE = path.join(REPO, 'examples/ci/deploy.sh');

let work: string;

beforeAll(async () => {
  work = await makeTempDir('svc-ci-recipe-');
  await mkdir(path.join(work, 'bin'));
  await symlink(SVC_BIN, path.join(work, 'bin/svc'));
});

afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

interface Run {
  code: number | null;
  out: string;
  home: string;
  cwd: string;
  cloudPort: number;
}

/** The recipe in a checkout-like directory of its own (examples/ linked), with only `env` set. */
async function runRecipe(name: string, env: Record<string, string> = {}): Promise<Run> {
  const cwd = path.join(work, name);
  const home = path.join(cwd, 'home');
  await mkdir(home, { recursive: true });
  await symlink(path.join(REPO, 'examples'), path.join(cwd, 'examples'));
  const [port, cloudPort] = [await freePort(), await freePort()];
  const child = spawn('bash', [RECIPE], {
    cwd,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      PATH: [path.join(work, 'bin'), path.dirname(process.execPath), '/usr/bin', '/bin'].join(':'),
      HOME: home,
      SVC_PORT: String(port),
      SVC_CLOUD_PORT: String(cloudPort),
      NO_COLOR: '1',
      ...env,
    },
  });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (out += d.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  return { code, out, home, cwd, cloudPort };
}

describe('examples/ci/deploy.sh', () => {
  it('is shown in the README as it is', async () => {
    const [recipe, readme] = await Promise.all([readFile(RECIPE, 'utf8'), readFile(path.join(REPO, 'README.md'), 'utf8')]);
    const indented = recipe.split('\n').map((l) => (l.trim() === '' ? l : `    ${l}`)).join('\n');
    expect(readme).toContain(indented);
  });

  it('deploys with the cloud identity and stops the server', async () => {
    const run = await runRecipe('ok');
    expect(run.code, run.out).toBe(0);
    expect(run.out).toContain('Success! Uploaded policy: ci-deploy');
    expect(run.out).toMatch(/Evaluation "[0-9a-f]{8}" finished with status "complete"/);
    expect(run.out).toContain('deployed examples/jobs/hello.nomad.hcl');
    // The token file holds the cloud login's token, not the dev server's root token.
    const token = (await readFile(path.join(run.home, '.svc-token'), 'utf8')).trim();
    const log = await readFile(path.join(run.cwd, 'svc-server.log'), 'utf8');
    const root = /^Root Token: (\S+)$/m.exec(log)?.[1];
    expect(root).toBeDefined();
    expect(token).not.toBe(root);
    // -dev-cloud-port put the simulator where the script asked.
    expect(log).toContain(`export CLOUD_METADATA_ENDPOINT='http://127.0.0.1:${run.cloudPort}'`);
    // The server stopped cleanly: it said so and took its endpoint file away.
    expect(log).toContain('==> svc server stopped');
    expect(existsSync(path.join(run.home, '.svc-cloud-endpoint'))).toBe(false);
  });

  it('fails when the job cannot be placed', async () => {
    const job = path.join(work, 'nowhere.nomad.hcl');
    await writeFile(job, 'job "nowhere" {\n  datacenters = ["nowhere"]\n  type = "batch"\n  group "g" {\n    task "t" {\n      driver = "raw_exec"\n      config {\n        command = "/bin/true"\n      }\n    }\n  }\n}\n');
    const run = await runRecipe('unplaceable', { JOB: job });
    expect(run.code, run.out).toBe(1);
    expect(run.out).toContain('deploy failed');
    expect(await readFile(path.join(run.cwd, 'svc-server.log'), 'utf8')).toContain('==> svc server stopped');
  });
});

describe('svc print cloud-endpoint', () => {
  it('without a running simulator says where it looked and how to start one', async () => {
    const home = path.join(work, 'no-sim');
    await mkdir(home);
    const res = await runCli(['print', 'cloud-endpoint'], { HOME: home });
    expect(res.code).toBe(1);
    expect(res.stderr).toBe(`Error: no cloud simulator endpoint in ${path.join(home, '.svc-cloud-endpoint')}: start one with \`svc server -dev -dev-cloud\`\n`);
  });
});
