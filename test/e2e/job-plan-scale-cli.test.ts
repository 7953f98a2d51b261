/**
 * `svc job plan`, `job scale`, `job scaling-events`, `job revert`, `job tag apply|unset` and
 * `job history -diff-tag` through the built bin/svc, against a real server whose mock-driver nodes take
 * the placements: Nomad's screens, exit codes and messages.
 */
import { rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTempDir, startTestServer, type TestServer } from '../support/server.js';
import { fakeNode, registerFakeNode } from '../support/nodes.js';
import { until } from '../support/wait.js';

let srv: TestServer;
let dir: string;

const jobHcl = (opts: { count?: number; runFor?: string; image?: string } = {}) => `variable "run_for" {
  type    = string
  default = "${opts.runFor ?? '1h'}"
}

job "web" {
  type        = "batch"
  datacenters = ["dc1"]

  group "app" {
    count = ${opts.count ?? 2}
    task "server" {
      driver = "mock"
      config {
        run_for = var.run_for
      }
      resources {
        cpu    = 100
        memory = 64
      }
    }
  }
}
`;

async function file(name: string, text: string): Promise<string> {
  const p = path.join(dir, name);
  await writeFile(p, text);
  return p;
}

const cli = (args: string[], env: Record<string, string> = {}) => srv.cli(args, { env: { TZ: 'UTC', ...env } });

async function versionCount(): Promise<number> {
  return (await srv.client().scheduler<{ Versions: unknown[] }>('GET', '/v1/job/web/versions')).body.Versions.length;
}

beforeAll(async () => {
  srv = await startTestServer({ client: false, heartbeatTtlMs: 600_000 });
  for (const n of [fakeNode(), fakeNode()]) await registerFakeNode(srv.client(), n);
  dir = await makeTempDir('svc-plan-cli-');
});
afterAll(async () => {
  await srv?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('svc job plan', () => {
  it('plans a new job: the added diff, all placed, the check-index hint, exit 1', async () => {
    const jobFile = await file('web.nomad.hcl', jobHcl());
    const r = await cli(['job', 'plan', jobFile]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('+ Job: "web"\n+ Task Group: "app" (2 create)\n  + Task: "server" (forces create)\n\n');
    expect(r.stdout).toContain('Scheduler dry-run:\n- All tasks successfully allocated.\n\n');
    expect(r.stdout).toContain(`Job Modify Index: 0\nTo submit the job with version verification run:\n\nsvc job run -check-index 0 ${jobFile}\n`);
    expect(r.stdout).toContain("another user has modified the job and the plan's results are\npotentially invalid.");
    expect(r.stdout).not.toContain('\u001b[');
    expect((await cli(['job', 'status', 'web'])).code).toBe(1);
  });

  it('an unchanged job exits 0; a changed one shows the edited field and repeats -var in the hint', async () => {
    const jobFile = await file('web.nomad.hcl', jobHcl());
    const run = await cli(['job', 'run', '-detach', jobFile]);
    expect(run.code).toBe(0);
    const index = (await srv.client().scheduler<{ JobModifyIndex: number }>('GET', '/v1/job/web')).body.JobModifyIndex;
    const same = await cli(['job', 'plan', jobFile]);
    expect(same.code).toBe(0);
    expect(same.stdout).toContain('Job: "web"\nTask Group: "app" (2 ignore)\n  Task: "server"\n');
    expect(same.stdout).toContain(`Job Modify Index: ${index}`);

    const changed = await cli(['job', 'plan', '-var', 'run_for=2h', jobFile]);
    expect(changed.code).toBe(1);
    expect(changed.stdout).toContain('+/- Job: "web"\n+/- Task Group: "app" (2 create/destroy update)\n  +/- Task: "server" (forces create/destroy update)\n');
    expect(changed.stdout).toContain('+/- run_for: "1h" => "2h"');
    expect(changed.stdout).toContain(`svc job run -check-index ${index} -var="run_for=2h" ${jobFile}\n`);
    expect(await versionCount()).toBe(1);
  });

  it('-verbose also shows the fields of an added task', async () => {
    const r = await cli(['job', 'plan', '-verbose', await file('fresh.nomad.hcl', jobHcl().replace('job "web"', 'job "fresh"'))]);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/\+ Task: "server" \(forces create\)\n\s+\+ Driver:\s+"mock"/);
  });

  it('-diff=false prints only the dry run; a failed placement prints the warning and the metrics', async () => {
    const big = await file('big.nomad.hcl', jobHcl({ count: 3 }).replace('memory = 64', 'memory = 100000'));
    const r = await cli(['job', 'plan', '-diff=false', big]);
    expect(r.code).toBe(1);
    expect(r.stdout.startsWith('Scheduler dry-run:\n- WARNING: Failed to place all allocations.\n  Task Group "app" (failed to place 3 allocations):\n')).toBe(true);
    expect(r.stdout).toMatch(/\* Dimension "memory" exhausted on 2 nodes/);
  });

  it('colours only when asked to (a terminal, or -force-color)', async () => {
    const jobFile = await file('web.nomad.hcl', jobHcl({ count: 3 }));
    const r = await cli(['job', 'plan', '-force-color', jobFile], { NO_COLOR: '' });
    expect(r.stdout).toContain('\u001b[1mScheduler dry-run:\u001b[22m');
    // The diff as Nomad colours it: +/- bright yellow, headings bold, what an update forces in its colour.
    expect(r.stdout).toContain('\u001b[93m+/-\u001b[39m \u001b[1mJob: "web"\u001b[22m');
    expect(r.stdout).toContain('\u001b[93m+/-\u001b[39m Count: "2" => "3" (\u001b[32mforces create\u001b[39m)');
    expect(r.stdout).toContain('\u001b[1m\u001b[32m- All tasks successfully allocated.\u001b[39m\u001b[22m');
  });

  it('exits 255 on an unreadable file, an invalid job, or a server error', async () => {
    const missing = await cli(['job', 'plan', path.join(dir, 'nope.hcl')]);
    expect(missing.code).toBe(255);
    const invalid = await cli(['job', 'plan', await file('bad.nomad.hcl', 'job "web" { group "g" { count = -1 } }')]);
    expect(invalid.code).toBe(255);
    expect(invalid.stderr).toMatch(/Error during plan: Unexpected response code: 400/);
    const down = await srv.cli(['job', 'plan', await file('web2.nomad.hcl', jobHcl())], { env: { SVC_ADDR: 'http://127.0.0.1:1' } });
    expect(down.code).toBe(255);
  });
});

describe('svc job scale and scaling-events', () => {
  it('scales the only group without naming it, and follows the evaluation', async () => {
    const r = await cli(['job', 'scale', 'web', '3']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/==> .*Monitoring evaluation "[0-9a-f]{8}"/);
    expect(r.stdout).toMatch(/Evaluation triggered by job "web"/);
    const job = (await srv.client().scheduler<{ TaskGroups: Array<{ Count: number }> }>('GET', '/v1/job/web')).body;
    expect(job.TaskGroups[0].Count).toBe(3);
  });

  it('-detach prints the evaluation ID; the same count records an event only', async () => {
    const r = await cli(['job', 'scale', '-detach', 'web', 'app', '1']);
    expect(r.stdout).toMatch(/^Evaluation ID: [0-9a-f-]{36}\n$/);
    const same = await cli(['job', 'scale', 'web', 'app', '1']);
    expect(same.stdout).toBe('Job scale successful\n');
  });

  it('refuses an unknown group, a count that is not a number, and a stale -check-index', async () => {
    const group = await cli(['job', 'scale', 'web', 'nope', '2']);
    expect([group.code, group.stderr.trim()]).toEqual([1, 'Group nope not found within job']);
    expect((await cli(['job', 'scale', 'web', 'two'])).code).toBe(1);
    const stale = await cli(['job', 'scale', '-check-index', '1', 'web', '2']);
    expect(stale.code).toBe(1);
    expect(stale.stderr).toMatch(/Error submitting scaling request: Unexpected response code: 409 \(Enforcing job modify index 1: job exists with conflicting job modify index/);
  });

  it('lists the events newest first; -verbose adds error, message and evaluation ID', async () => {
    const r = await cli(['job', 'scaling-events', 'web']);
    expect(r.code).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^Task Group\s+Count\s+PrevCount\s+Date$/);
    expect(lines.slice(1).map((l) => l.split(/\s+/).slice(0, 3))).toEqual([
      ['app', '1', '1'],
      ['app', '1', '3'],
      ['app', '3', '2'],
    ]);
    const verbose = await cli(['job', 'scaling-events', '-verbose', 'web']);
    expect(verbose.stdout.split('\n')[0]).toMatch(/^Task Group\s+Count\s+PrevCount\s+Error\s+Message\s+Eval ID\s+Date$/);
    expect(verbose.stdout.split('\n')[1]).toMatch(/^app\s+1\s+1\s+false\s+submitted using the svc CLI\s+<none>\s+\d{4}-/);
    expect(verbose.stdout.split('\n')[2]).toMatch(/false\s+submitted using the svc CLI\s+[0-9a-f-]{36}\s+\d{4}-/);
  });

  it('says when a job has no events', async () => {
    const other = await file('other.nomad.hcl', jobHcl().replace('job "web"', 'job "quiet"'));
    expect((await cli(['job', 'run', '-detach', other])).code).toBe(0);
    expect((await cli(['job', 'scaling-events', 'quiet'])).stdout).toBe('No events found\n');
  });
});

describe('svc job tag, revert and history -diff-tag', () => {
  it('tags the current version, or the one -version names; a name is required', async () => {
    const current = (await srv.client().scheduler<{ Version: number }>('GET', '/v1/job/web')).body.Version;
    const r = await cli(['job', 'tag', 'apply', '-name', 'golden', '-description', 'known good', 'web']);
    expect([r.code, r.stdout]).toEqual([0, `Job version ${current} tagged with name "golden"\n`]);
    expect((await cli(['job', 'tag', 'apply', '-name', 'first', '-version', '0', 'web'])).stdout).toBe('Job version 0 tagged with name "first"\n');
    const noName = await cli(['job', 'tag', 'apply', 'web']);
    expect(noName.code).toBe(1);
    expect(noName.stderr).toContain('A version tag name is required');
    const taken = await cli(['job', 'tag', 'apply', '-name', 'golden', '-version', '0', 'web']);
    expect(taken.code).toBe(1);
    expect(taken.stderr).toContain('Error tagging job version: Unexpected response code: 409 (tag "golden" already exists on a different version of job "web")');
  });

  it('history shows the tags and diffs against a tag', async () => {
    const r = await cli(['job', 'history', '-p', '-diff-tag', 'first', 'web']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/Tag Name\s+= golden\nTag Description = known good/);
    expect(r.stdout).toContain('+/- Count: "2" => "1"');
  });

  it('reverts to a tagged version and to a version number; the current version is refused', async () => {
    const byTag = await cli(['job', 'revert', '-detach', 'web', 'first']);
    expect(byTag.stdout).toMatch(/^Evaluation ID: [0-9a-f-]{36}\n$/);
    const latest = (await srv.client().scheduler<{ Version: number; TaskGroups: Array<{ Count: number }> }>('GET', '/v1/job/web')).body;
    expect(latest.TaskGroups[0].Count).toBe(2);
    const byNumber = await cli(['job', 'revert', 'web', '1']);
    expect(byNumber.code).toBe(0);
    expect(byNumber.stdout).toMatch(/Monitoring evaluation/);
    const current = (await srv.client().scheduler<{ Version: number }>('GET', '/v1/job/web')).body.Version;
    const same = await cli(['job', 'revert', 'web', String(current)]);
    expect(same.code).toBe(1);
    expect(same.stderr).toContain("can't revert to current version");
    const unknownTag = await cli(['job', 'revert', 'web', 'nope']);
    expect(unknownTag.code).toBe(1);
    expect(unknownTag.stderr).toContain('version tag "nope" not found for job "web"');
  });

  it('unsets a tag, and says when the job does not have it', async () => {
    const r = await cli(['job', 'tag', 'unset', '-name', 'first', 'web']);
    expect([r.code, r.stdout]).toEqual([0, 'Tag "first" removed from job "web"\n']);
    const again = await cli(['job', 'tag', 'unset', '-name', 'first', 'web']);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('tag "first" not found on job "web"');
    await until(() => cli(['job', 'history', 'web']), (h) => !h.stdout.includes('Tag Name        = first'), 'the tag gone from history');
  });
});
