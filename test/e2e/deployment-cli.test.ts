/**
 * The deployment commands through the built bin/svc against a real server whose own node runs raw_exec
 * tasks: `job run` following a service job's deployment to success, to failure and through its rollback;
 * -detach and batch jobs without a deployment monitor; `job status`'s Latest Deployment; `job
 * deployments`; and `deployment list/status/fail/pause/resume/promote`.
 */
import { rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTempDir, startTestServer, type TestServer } from '../support/server.js';
import { until } from '../support/wait.js';
import type { Deployment } from '../../src/api/deployments.js';

let srv: TestServer;
let dir: string;

const cli = (args: string[]) => srv.cli(args, { env: { TZ: 'UTC' } });
const file = (name: string) => path.join(dir, name);

const TIME = /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ/;
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/;
const short = (id: string) => id.slice(0, 8);

interface ServiceOptions {
  count?: number;
  command?: string;
  minHealthy?: string;
  autoRevert?: boolean;
}

/** A service job whose task group rolls out under a deployment, one allocation at a time. */
function service(id: string, o: ServiceOptions = {}): string {
  return `job "${id}" {
  group "web" {
    count = ${o.count ?? 2}
    update {
      max_parallel      = 1
      min_healthy_time  = "${o.minHealthy ?? '300ms'}"
      healthy_deadline  = "1m"
      progress_deadline = "2m"
      auto_revert       = ${o.autoRevert ?? true}
    }
    restart {
      attempts = 0
      mode     = "fail"
      interval = "1m"
      delay    = "100ms"
    }
    reschedule {
      attempts  = 0
      unlimited = false
    }
    task "server" {
      driver       = "raw_exec"
      kill_timeout = "1s"
      config {
        command = "/bin/sh"
        args    = ["-c", ${JSON.stringify(o.command ?? 'exec sleep 300')}]
      }
      resources {
        cpu    = 20
        memory = 16
      }
    }
  }
}
`;
}

const BATCH = `job "once" {
  type = "batch"
  group "g" {
    task "t" {
      driver = "raw_exec"
      config {
        command = "/bin/true"
      }
      resources {
        cpu    = 20
        memory = 16
      }
    }
  }
}
`;

const api = () => srv.client();
const jobDeployments = async (job: string) => (await api().scheduler<Deployment[]>('GET', `/v1/job/${job}/deployments`)).body;
const latest = async (job: string) => (await api().scheduler<Deployment | null>('GET', `/v1/job/${job}/deployment`)).body;
const deploymentOf = async (id: string) => (await api().scheduler<Deployment>('GET', `/v1/deployment/${id}`)).body;

/** Submits a job file with -detach and waits for the deployment of its new version to be running. */
async function detachedRollout(job: string, hcl: string, name: string): Promise<Deployment> {
  await writeFile(file(name), hcl);
  const before = (await latest(job).catch(() => null))?.ID;
  const res = await cli(['job', 'run', '-detach', file(name)]);
  expect(res.code).toBe(0);
  return (await until(() => latest(job), (d) => d !== null && d.ID !== before && d.Status === 'running', `a running deployment of ${job}`))!;
}

beforeAll(async () => {
  srv = await startTestServer();
  dir = await makeTempDir('svc-deploy-cli-');
  await until(
    () => api().scheduler<Array<{ Status: string }>>('GET', '/v1/nodes').then((r) => r.body),
    (nodes) => nodes.some((n) => n.Status === 'ready'),
    'the node to be ready',
  );
}, 60_000);

afterAll(async () => {
  await srv?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('svc job run follows the deployment', () => {
  it('of a service job to success, and exits 0', async () => {
    await writeFile(file('site-v0.hcl'), service('site'));
    const res = await cli(['job', 'run', file('site-v0.hcl')]);
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    const d = (await latest('site'))!;
    expect(d).toMatchObject({ JobVersion: 0, Status: 'successful' });
    const id = short(d.ID);
    const out = res.stdout;
    expect(out).toMatch(new RegExp(`\\n {4}${TIME.source}: Evaluation within deployment: "${id}"\\n`));
    // The deployment monitor starts after the evaluation monitor ends.
    expect(out).toMatch(new RegExp(`==> ${TIME.source}: Evaluation "[0-9a-f]{8}" finished with status "complete"\\n==> ${TIME.source}: Monitoring deployment "${id}"\\n\\n {4}${TIME.source}\\n {4}ID {10}= ${id}\\n`));
    expect(out).toContain('    Job ID      = site\n    Job Version = 0\n');
    expect(out).toMatch(/\n {4}Deployed\n {4}Task Group {2}Auto Revert {2}Desired {2}Placed {2}Healthy {2}Unhealthy {2}Progress Deadline\n/);
    // The last block shows the deployment done, every allocation healthy.
    const blocks = out.split(/\n\n {4}(?=\d{4}-)/).slice(1);
    expect(blocks.at(-1)).toMatch(/Status {6}= successful\n {4}Description = Deployment completed successfully\n/);
    expect(blocks.at(-1)).toMatch(new RegExp(`\\n {4}web +true +2 +2 +2 +0 +${TIME.source}\\n`));
    expect(out.endsWith(`\n\n  ✓ Deployment "${id}" successful\n`)).toBe(true);
  });

  it('of a version whose task fails: reports the failure and the rollback, and exits 1', async () => {
    await writeFile(file('site-bad.hcl'), service('site', { command: 'exit 7' }));
    const res = await cli(['job', 'run', file('site-bad.hcl')]);
    expect(res.code).toBe(1);
    const list = await until(() => jobDeployments('site'), (l) => l.some((d) => d.JobVersion === 2 && d.Status === 'successful'), 'the rollback to succeed');
    const failed = list.find((d) => d.JobVersion === 1)!;
    const rollback = list.find((d) => d.JobVersion === 2)!;
    expect(failed.Status).toBe('failed');
    const out = res.stdout;
    expect(out).toContain(`Monitoring deployment "${short(failed.ID)}"\n`);
    expect(out).toContain('    Description = Failed due to unhealthy allocations - rolling back to job version 0\n');
    expect(out).toMatch(/\n {4}web +true +2 +1 +0 +1 +\S+\n/);
    expect(out).toContain(`\n  ! Deployment "${short(failed.ID)}" failed\n`);
    expect(out).toMatch(new RegExp(`\\n==> ${TIME.source}: Monitoring rollback deployment "${short(rollback.ID)}"\\n`));
    expect(out).toContain('    Job Version = 2\n');
    expect(out.endsWith(`\n  ✓ Deployment "${short(rollback.ID)}" successful\n`)).toBe(true);
    // The rollback registered version 0's spec again.
    const job = (await api().scheduler<{ Version: number; Stable: boolean }>('GET', '/v1/job/site')).body;
    expect(job).toMatchObject({ Version: 2, Stable: true });
  });

  it('-detach prints the evaluation and no deployment monitor', async () => {
    await writeFile(file('site-v3.hcl'), service('site', { command: 'echo v3; exec sleep 300' }));
    const res = await cli(['job', 'run', '-detach', file('site-v3.hcl')]);
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(new RegExp(`^Job registration successful\\nEvaluation ID: ${UUID.source}\\n$`));
    await until(() => latest('site'), (d) => d?.JobVersion === 3 && d.Status === 'successful', 'version 3 to roll out');
  });

  it('not for a batch job, which has no deployment', async () => {
    await writeFile(file('once.hcl'), BATCH);
    const res = await cli(['job', 'run', file('once.hcl')]);
    expect(res.code).toBe(0);
    expect(res.stdout).not.toContain('deployment');
    expect(res.stdout.trimEnd().split('\n').at(-1)).toMatch(/^==> \S+: Evaluation "[0-9a-f]{8}" finished with status "complete"$/);
    const none = await cli(['job', 'deployments', 'once']);
    expect(none.code).toBe(0);
    expect(none.stdout).toBe('No deployments found\n');
  });
});

describe('svc job status and svc job deployments', () => {
  it('job status shows the Latest Deployment', async () => {
    const d = (await latest('site'))!;
    const res = await cli(['job', 'status', 'site']);
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(
      new RegExp(
        `\\nLatest Deployment\\nID {10}= ${short(d.ID)}\\nStatus {6}= successful\\nDescription = Deployment completed successfully\\n\\n` +
          `Deployed\\nTask Group  Auto Revert  Desired  Placed  Healthy  Unhealthy  Progress Deadline\\nweb {9}true {9}2 {8}2 {7}2 {8}0 {10}${TIME.source}\\n\\nAllocations\\n`,
      ),
    );
  });

  it('job deployments lists them newest first, -latest shows one in full, -json and -verbose', async () => {
    const all = await jobDeployments('site');
    const res = await cli(['job', 'deployments', 'si']);
    expect(res.code).toBe(0);
    const lines = res.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^ID +Job ID +Job Version +Status +Description$/);
    expect(lines.slice(1).map((l) => l.split(/ {2,}/).slice(0, 4))).toEqual([
      [short(all[0].ID), 'site', '3', 'successful'],
      [short(all[1].ID), 'site', '2', 'successful'],
      [short(all[2].ID), 'site', '1', 'failed'],
      [short(all[3].ID), 'site', '0', 'successful'],
    ]);
    expect(lines[3]).toMatch(/ {2}Failed due to unhealthy allocations - rolling back to job version 0$/);

    const last = await cli(['job', 'deployments', '-latest', 'site']);
    expect(last.stdout).toMatch(new RegExp(`^ID {10}= ${short(all[0].ID)}\\nJob ID {6}= site\\nJob Version = 3\\nStatus {6}= successful\\n`));
    expect(last.stdout).toContain('\nDeployed\nTask Group  Auto Revert  Desired');

    const json = JSON.parse((await cli(['job', 'deployments', '-json', 'site'])).stdout) as Deployment[];
    expect(json.map((d) => d.ID)).toEqual(all.map((d) => d.ID));
    expect((await cli(['job', 'deployments', '-verbose', 'site'])).stdout).toContain(`\n${all[0].ID}  site`);

    const unknown = await cli(['job', 'deployments', 'nope']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toBe('No job(s) with prefix or id "nope" found\n');
  });
});

describe('svc deployment list and status', () => {
  it('list shows every deployment newest first; -json, -filter and pages', async () => {
    const all = (await api().scheduler<Deployment[]>('GET', '/v1/deployments')).body;
    const res = await cli(['deployment', 'list']);
    expect(res.code).toBe(0);
    const lines = res.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^ID +Job ID +Job Version +Status +Description$/);
    expect(lines.slice(1).map((l) => l.split(' ')[0])).toEqual([...all].reverse().map((d) => short(d.ID)));

    const json = JSON.parse((await cli(['deployment', 'list', '-json'])).stdout) as Deployment[];
    expect(json.map((d) => d.ID).sort()).toEqual(all.map((d) => d.ID).sort());

    const failed = await cli(['deployment', 'list', '-filter', 'Status == "failed"']);
    expect(failed.stdout.trimEnd().split('\n').slice(1)).toEqual([expect.stringMatching(/^[0-9a-f]{8} +site +1 +failed +/)]);

    const page = await cli(['deployment', 'list', '-per-page', '2']);
    expect(page.stdout).toMatch(/\nResults have been paginated\. To get the next page run:\n\nsvc deployment list -per-page 2 -page-token \S+\n$/);
    expect(page.stdout.split('\n').slice(1, 3).map((l) => l.split(' ')[0]).sort()).toEqual(all.slice(0, 2).map((d) => short(d.ID)).sort());
    const token = /-page-token (\S+)\n$/.exec(page.stdout)![1];
    const next = await cli(['deployment', 'list', '-per-page', '2', '-page-token', token]);
    expect(next.stdout.split('\n').slice(1, 3).map((l) => l.split(' ')[0]).sort()).toEqual(all.slice(2, 4).map((d) => short(d.ID)).sort());
  });

  it('status shows a deployment by prefix; -json; -verbose; unknown and short IDs are refused', async () => {
    const d = (await jobDeployments('site')).find((x) => x.JobVersion === 1)!;
    const res = await cli(['deployment', 'status', d.ID.slice(0, 7)]);
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(
      new RegExp(
        `^ID {10}= ${short(d.ID)}\\nJob ID {6}= site\\nJob Version = 1\\nStatus {6}= failed\\n` +
          `Description = Failed due to unhealthy allocations - rolling back to job version 0\\n\\nDeployed\\n` +
          `Task Group  Auto Revert  Desired  Placed  Healthy  Unhealthy  Progress Deadline\\nweb {9}true {9}2 {8}1 {7}0 {8}1 {10}${TIME.source}\\n$`,
      ),
    );
    expect(JSON.parse((await cli(['deployment', 'status', '-json', d.ID])).stdout)).toMatchObject({ ID: d.ID, JobVersion: 1, Status: 'failed' });
    expect((await cli(['deployment', 'status', '-verbose', short(d.ID)])).stdout).toContain(`ID          = ${d.ID}\n`);

    const unknown = await cli(['deployment', 'status', 'deadbeef']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toBe('Error retrieving deployment: Deployment ID "deadbeef" matched no deployments\n');
    const tooShort = await cli(['deployment', 'status', 'a']);
    expect(tooShort.code).toBe(1);
    expect(tooShort.stderr).toBe('Identifier must contain at least two characters.\n');
  });

  it('status -monitor follows a running deployment to its end and exits 0', async () => {
    const d = await detachedRollout('quick', service('quick', { count: 1, minHealthy: '2s' }), 'quick.hcl');
    const res = await cli(['deployment', 'status', '-monitor', short(d.ID)]);
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(new RegExp(`^==> ${TIME.source}: Monitoring deployment "${short(d.ID)}"\\n`));
    // It saw the deployment running, then done.
    expect(res.stdout).toMatch(/Status {6}= running\n[^]*Status {6}= successful\n/);
    expect(res.stdout.endsWith(`\n  ✓ Deployment "${short(d.ID)}" successful\n`)).toBe(true);
    expect((await deploymentOf(d.ID)).Status).toBe('successful');
  });

  it('status -monitor of a failed deployment exits 1', async () => {
    const d = (await jobDeployments('site')).find((x) => x.JobVersion === 1)!;
    const res = await cli(['deployment', 'status', '-monitor', d.ID]);
    expect(res.code).toBe(1);
    expect(res.stdout).toContain(`\n  ! Deployment "${short(d.ID)}" failed\n`);
  });
});

describe('svc deployment pause, resume, promote and fail', () => {
  let slow: Deployment;

  beforeAll(async () => {
    slow = await detachedRollout('slow', service('slow', { count: 1, minHealthy: '45s', autoRevert: false }), 'slow.hcl');
  });

  it('pause and resume', async () => {
    const paused = await cli(['deployment', 'pause', short(slow.ID)]);
    expect(paused.stderr).toBe('');
    expect(paused.code).toBe(0);
    expect(paused.stdout).toBe(`Deployment "${slow.ID}" paused\n`);
    expect(await deploymentOf(slow.ID)).toMatchObject({ Status: 'paused', StatusDescription: 'Deployment is paused' });

    const resumed = await cli(['deployment', 'resume', short(slow.ID)]);
    expect(resumed.code).toBe(0);
    // Then the evaluation that carries the deployment on, as Nomad's resume does.
    expect(resumed.stdout).toMatch(new RegExp(`^Deployment "${slow.ID}" resumed\\n\\n==> ${TIME.source}: Monitoring evaluation "[0-9a-f]{8}"\\n`));
    expect(resumed.stdout).toMatch(/finished with status "complete"\n$/);
    expect(await deploymentOf(slow.ID)).toMatchObject({ Status: 'running', StatusDescription: 'Deployment is running' });
    const detached = await cli(['deployment', 'resume', '-detach', slow.ID]);
    expect(detached.stdout).toBe(`Deployment "${slow.ID}" resumed\n`);
  });

  it("promote passes the server's refusal on", async () => {
    const res = await cli(['deployment', 'promote', short(slow.ID)]);
    expect(res.code).toBe(1);
    expect(res.stdout).toBe('');
    expect(res.stderr).toMatch(/^Error promoting deployment: Unexpected response code: 400 \(no canaries to promote\)\n$/);
  });

  it('fail marks it failed; an ended deployment cannot be failed or paused again', async () => {
    const res = await cli(['deployment', 'fail', short(slow.ID)]);
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    expect(res.stdout).toBe(`Deployment "${slow.ID}" failed\n`);
    expect(await deploymentOf(slow.ID)).toMatchObject({ Status: 'failed', StatusDescription: 'Deployment marked as failed' });

    const again = await cli(['deployment', 'fail', slow.ID]);
    expect(again.code).toBe(1);
    expect(again.stderr).toBe(`Error failing deployment: Unexpected response code: 400 (can't fail terminal deployment (status "failed"))\n`);
    const pause = await cli(['deployment', 'pause', slow.ID]);
    expect(pause.code).toBe(1);
    expect(pause.stderr).toMatch(/^Error pausing deployment: Unexpected response code: 400 \(can't pause terminal deployment/);
  });

  it('fail of a deployment with auto_revert says which version it rolls back to', async () => {
    const d = await detachedRollout('site', service('site', { command: 'echo v4; exec sleep 300', minHealthy: '45s' }), 'site-v4.hcl');
    expect(d.JobVersion).toBe(4);
    const res = await cli(['deployment', 'fail', d.ID.slice(0, 6)]);
    expect(res.code).toBe(0);
    expect(res.stdout).toBe(`Deployment "${d.ID}" failed\nRolling back to job version 3\n`);
    expect((await deploymentOf(d.ID)).StatusDescription).toBe('Deployment marked as failed - rolling back to job version 3');
    const job = await until(() => api().scheduler<{ Version: number }>('GET', '/v1/job/site').then((r) => r.body), (j) => j.Version === 5, 'the revert');
    expect(job.Version).toBe(5);
    // A revert is a version like any other: past six, the oldest untagged ones go.
    const next = await detachedRollout('site', service('site', { command: 'echo v6; exec sleep 300', minHealthy: '45s' }), 'site-v6.hcl');
    expect((await cli(['deployment', 'fail', next.ID])).code).toBe(0);
    await until(() => api().scheduler<{ Version: number }>('GET', '/v1/job/site').then((r) => r.body), (j) => j.Version === 7, 'the second revert');
    const versions = (await api().scheduler<{ Versions: Array<{ Version: number }> }>('GET', '/v1/job/site/versions')).body.Versions;
    expect(versions.map((v) => v.Version)).toEqual([7, 6, 5, 4, 3, 2]);
  });
});
