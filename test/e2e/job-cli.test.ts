/**
 * The first `svc job` commands against a real server, through the built bin/svc: validate, inspect,
 * history and status, their Nomad screens, their -json output and their failures.
 */
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTempDir, startTestServer, type TestServer } from '../support/server.js';
import { parseJobspec, type ApiJob } from '../../src/jobspec/index.js';
import { loadJobFile } from '../../src/cli/job-file.js';
import { formatNomadTime } from '../../src/cli/commands/job/status.js';

let srv: TestServer;
let dir: string;

const JOB_HCL = `variable "image" {
  type    = string
  default = "redis:7"
}

variable "prio" {
  type    = number
  default = 50
}

job "example" {
  datacenters = ["dc1"]
  priority    = var.prio

  group "cache" {
    task "redis" {
      driver = "docker"
      config {
        image = var.image
      }
    }
  }
}
`;

const PERIODIC_HCL = `job "nightly" {
  type = "batch"
  periodic {
    cron = "0 3 * * *"
  }
  group "g" {
    task "t" {
      driver = "exec"
      config {
        command = "/bin/true"
      }
    }
  }
}
`;

/** Runs the CLI with the time zone pinned, so Submit Date is predictable. */
const cli = (args: string[], env: Record<string, string> = {}, input?: string) => srv.cli(args, { env: { TZ: 'UTC', ...env }, input });

async function register(job: ApiJob, extra: Record<string, unknown> = {}, namespace?: string): Promise<void> {
  await srv.client().scheduler('POST', '/v1/jobs', { body: { Job: job, ...extra }, query: namespace ? { namespace } : {} });
}

async function currentJob(id: string): Promise<Record<string, unknown> & { SubmitTime: number }> {
  return (await srv.client().scheduler<Record<string, unknown> & { SubmitTime: number }>('GET', `/v1/job/${id}`)).body;
}

/** RFC3339 in UTC, without fractions, as Go prints a time in the UTC zone. */
const utc = (ns: number) => new Date(Math.floor(ns / 1e6)).toISOString().replace(/\.\d{3}Z$/, 'Z');

beforeAll(async () => {
  srv = await startTestServer();
  dir = await makeTempDir('svc-job-cli-');
  await writeFile(path.join(dir, 'job.nomad.hcl'), JOB_HCL);
  await writeFile(path.join(dir, 'periodic.nomad.hcl'), PERIODIC_HCL);
  // Two versions of "example" (priority 50, then 70), a second job sharing its prefix, and a periodic job.
  const loaded = await loadJobFile({ path: path.join(dir, 'job.nomad.hcl') });
  await register(loaded.job, { Submission: loaded.submission });
  const v1 = await loadJobFile({ path: path.join(dir, 'job.nomad.hcl'), vars: ['prio=70'] });
  await register(v1.job, { Submission: v1.submission });
  await register({ ...(await parseJobspec(JOB_HCL)), ID: 'example-two', Name: 'example-two' });
  await register(await parseJobspec(PERIODIC_HCL));
  await srv.client().scheduler('POST', '/v1/namespace/empty', { body: { Name: 'empty', Description: '' } });
  await srv.client().scheduler('POST', '/v1/namespace/other', { body: { Name: 'other', Description: '' } });
  await register({ ...(await parseJobspec(JOB_HCL)), Namespace: 'other' }, {}, 'other');
});

afterAll(async () => {
  await srv?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('job file loading', () => {
  const file = () => path.join(dir, 'job.nomad.hcl');

  it('applies precedence default < NOMAD_VAR_ < SVC_VAR_ < -var-file < -var', async () => {
    const image = async (opts: Parameters<typeof loadJobFile>[0]) => {
      const { job } = await loadJobFile(opts);
      return ((job.TaskGroups as Array<{ Tasks: Array<{ Config: { image: string } }> }>)[0].Tasks[0].Config.image);
    };
    await writeFile(path.join(dir, 'a.vars'), 'image = "from-file"\n');
    expect(await image({ path: file() })).toBe('redis:7');
    expect(await image({ path: file(), env: { NOMAD_VAR_image: 'nomad-env' } })).toBe('nomad-env');
    expect(await image({ path: file(), env: { NOMAD_VAR_image: 'nomad-env', SVC_VAR_image: 'svc-env' } })).toBe('svc-env');
    expect(await image({ path: file(), env: { SVC_VAR_image: 'svc-env' }, varFiles: [path.join(dir, 'a.vars')] })).toBe('from-file');
    expect(await image({ path: file(), varFiles: [path.join(dir, 'a.vars')], vars: ['image=from-flag'] })).toBe('from-flag');
  });

  it('builds the JobSubmission Nomad stores with a job', async () => {
    await writeFile(path.join(dir, 'b.vars'), 'prio = 60');
    const { submission } = await loadJobFile({
      path: file(),
      vars: ['image=x=y'],
      varFiles: [path.join(dir, 'b.vars')],
      env: { NOMAD_VAR_prio: '40', SVC_VAR_image: 'ignored-by-flag', UNRELATED: '1' },
    });
    expect(submission).toEqual({
      Source: JOB_HCL,
      Format: 'hcl2',
      // The -var value keeps everything after the first '=', and wins over the environment.
      VariableFlags: { prio: '40', image: 'x=y' },
      Variables: 'prio = 60\n',
    });
  });

  it('reads the job from stdin for "-"', async () => {
    const { Readable } = await import('node:stream');
    const { job, filename } = await loadJobFile({ path: '-', stdin: Readable.from([JOB_HCL]) });
    expect(job.ID).toBe('example');
    expect(filename).toBe('stdin');
  });

  it('refuses variables for API JSON files and malformed -var flags', async () => {
    await writeFile(path.join(dir, 'api.json'), JSON.stringify({ Job: { ID: 'j' } }));
    await expect(loadJobFile({ path: path.join(dir, 'api.json'), vars: ['a=b'], json: true })).rejects.toThrow('cannot use variables with JSON files');
    await expect(loadJobFile({ path: file(), vars: ['novalue'] })).rejects.toThrow('invalid -var "novalue"');
  });
});

describe('svc job validate', () => {
  it('accepts a valid job file', async () => {
    const res = await cli(['job', 'validate', path.join(dir, 'job.nomad.hcl')]);
    expect(res.stderr).toBe('');
    expect(res.stdout).toBe('Job validation successful\n');
    expect(res.code).toBe(0);
  });

  it('reads the job from stdin with "-"', async () => {
    const res = await cli(['job', 'validate', '-'], {}, JOB_HCL);
    expect(res.stdout).toBe('Job validation successful\n');
    expect(res.code).toBe(0);
  });

  it('reports every validation error on stderr and exits 1', async () => {
    const res = await cli(['job', 'validate', '-var', 'prio=500', path.join(dir, 'job.nomad.hcl')]);
    expect(res.code).toBe(1);
    expect(res.stdout).toBe('');
    expect(res.stderr).toMatch(/^Job validation errors:\n1 error occurred:\n\t\* .*[Pp]riority/);
  });

  it('takes variables from the environment, -var-file and -var, in that precedence', async () => {
    const file = path.join(dir, 'job.nomad.hcl');
    await writeFile(path.join(dir, 'bad.vars'), 'prio = 500\n');
    await writeFile(path.join(dir, 'good.vars'), 'prio = 60\n');
    expect((await cli(['job', 'validate', file], { SVC_VAR_prio: '500' })).code).toBe(1);
    expect((await cli(['job', 'validate', file], { NOMAD_VAR_prio: '500' })).code).toBe(1);
    expect((await cli(['job', 'validate', '-var-file', path.join(dir, 'good.vars'), file], { NOMAD_VAR_prio: '500' })).code).toBe(0);
    expect((await cli(['job', 'validate', '-var-file', path.join(dir, 'bad.vars'), file])).code).toBe(1);
    expect((await cli(['job', 'validate', '-var-file', path.join(dir, 'good.vars'), '-var-file', path.join(dir, 'bad.vars'), file])).code).toBe(1);
    expect((await cli(['job', 'validate', '-var-file', path.join(dir, 'bad.vars'), '-var', 'prio=60', file])).code).toBe(0);
  });

  it('prints the server\'s warnings before the verdict', async () => {
    const res = await cli(['job', 'validate', path.join(dir, 'periodic.nomad.hcl')]);
    expect(res.code).toBe(0);
    expect(res.stdout).toBe('Job Warnings:\ncron is deprecated and may be removed in a future release. Use crons instead\n\nJob validation successful\n');
  });

  it('accepts what job inspect prints, as -json input, and refuses variables with it', async () => {
    const inspected = await cli(['job', 'inspect', 'example']);
    const file = path.join(dir, 'inspected.json');
    await writeFile(file, inspected.stdout);
    const ok = await cli(['job', 'validate', '-json', file]);
    expect(ok.stdout).toBe('Job validation successful\n');
    expect(ok.code).toBe(0);
    const withVars = await cli(['job', 'validate', '-json', '-var', 'prio=1', file]);
    expect(withVars.code).toBe(1);
    expect(withVars.stderr).toContain('cannot use variables with JSON files.');
    const notJson = await cli(['job', 'validate', '-json', path.join(dir, 'job.nomad.hcl')]);
    expect(notJson.code).toBe(1);
    expect(notJson.stderr).toContain('-json was given but the file is not JSON');
  });

  it('names the file and line of a syntax error', async () => {
    const bad = path.join(dir, 'broken.nomad.hcl');
    await writeFile(bad, 'job "x" {\n  group "g" {\n    count = = 1\n  }\n}\n');
    const res = await cli(['job', 'validate', bad]);
    expect(res.code).toBe(1);
    expect(res.stdout).toBe('');
    expect(res.stderr).toContain(`Error getting job struct: Error parsing job file from ${bad}:`);
    expect(res.stderr).toMatch(/broken\.nomad\.hcl:3:\d+: /);
  });

  it('fails on a missing file, an undeclared -var and an empty file', async () => {
    const missing = await cli(['job', 'validate', path.join(dir, 'nope.hcl')]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('Error getting job struct: Error getting jobfile from');
    expect(missing.stderr).toContain('no such file');

    const undeclared = await cli(['job', 'validate', '-var', 'nosuch=1', path.join(dir, 'job.nomad.hcl')]);
    expect(undeclared.code).toBe(1);
    expect(undeclared.stderr).toContain('Undefined -var variable "nosuch"');

    const empty = await cli(['job', 'validate', '-'], {}, '  \n');
    expect(empty.code).toBe(1);
    expect(empty.stderr).toContain('the job file is empty');
  });

  it('fails on a missing var file', async () => {
    const res = await cli(['job', 'validate', '-var-file', path.join(dir, 'none.vars'), path.join(dir, 'job.nomad.hcl')]);
    expect(res.code).toBe(1);
    expect(res.stderr).toContain('Error getting var file from');
  });
});

describe('svc job inspect', () => {
  it('prints {"Job": …} with 4-space indentation', async () => {
    const res = await cli(['job', 'inspect', 'example']);
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(/^\{\n {4}"Job": \{\n {8}"/);
    const out = JSON.parse(res.stdout);
    expect(out.Job).toMatchObject({ ID: 'example', Priority: 70, Version: 1 });
    expect(out.Job).toEqual(await currentJob('example'));
  });

  it('-json prints the bare job', async () => {
    const out = JSON.parse((await cli(['job', 'inspect', '-json', 'example'])).stdout);
    expect(out).toMatchObject({ ID: 'example', Version: 1 });
    expect(out.Job).toBeUndefined();
  });

  it('-version prints an older version, and fails for an unknown one', async () => {
    const old = JSON.parse((await cli(['job', 'inspect', '-version', '0', 'example'])).stdout);
    expect(old.Job).toMatchObject({ Version: 0, Priority: 50 });
    const res = await cli(['job', 'inspect', '-version', '9', 'example']);
    expect(res.code).toBe(1);
    expect(res.stderr).toContain('job "example" with version 9 couldn\'t be found');
    const bad = await cli(['job', 'inspect', '-version', 'abc', 'example']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('-version');
  });

  it('-hcl prints the submitted source of that version', async () => {
    const res = await cli(['job', 'inspect', '-hcl', 'example']);
    expect(res.code).toBe(0);
    expect(res.stdout).toBe(JOB_HCL);
  });

  it('resolves a unique prefix, and an exact ID even when it prefixes another job', async () => {
    expect(JSON.parse((await cli(['job', 'inspect', 'nigh'])).stdout).Job.ID).toBe('nightly');
    expect(JSON.parse((await cli(['job', 'inspect', 'example'])).stdout).Job.ID).toBe('example');
  });

  it('refuses an ambiguous prefix with the list of matches', async () => {
    const res = await cli(['job', 'inspect', 'exam']);
    expect(res.code).toBe(1);
    expect(res.stdout).toBe('');
    expect(res.stderr).toMatch(/^Prefix matched multiple jobs\n\nID +Type +Priority +Status +Submit Date\nexample +service +70 +pending .*\nexample-two +service +50 /);
  });

  it('fails for an unknown job', async () => {
    const res = await cli(['job', 'inspect', 'zzz']);
    expect(res.code).toBe(1);
    expect(res.stderr).toBe('No job(s) with prefix or id "zzz" found\n');
  });
});

describe('svc job history', () => {
  it('prints one block per version, newest first', async () => {
    const versions = (await srv.client().scheduler<{ Versions: Array<{ SubmitTime: number }> }>('GET', '/v1/job/example/versions')).body.Versions;
    const res = await cli(['job', 'history', 'example']);
    expect(res.code).toBe(0);
    expect(res.stdout).toBe(
      `Version     = 1\nStable      = false\nSubmit Date = ${utc(versions[0].SubmitTime)}\n\n` +
        `Version     = 0\nStable      = false\nSubmit Date = ${utc(versions[1].SubmitTime)}\n`,
    );
  });

  it('-version shows one version; -full adds its job', async () => {
    const res = await cli(['job', 'history', '-version', '0', '-full', 'example']);
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(/^Version     = 0\nStable      = false\nSubmit Date = \S+\nFull        = JSON Job:\n\{\n/);
    expect(JSON.parse(res.stdout.slice(res.stdout.indexOf('{')))).toMatchObject({ ID: 'example', Version: 0, Priority: 50 });
    const missing = await cli(['job', 'history', '-version', '5', 'example']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toBe('Could not find job version 5\n');
  });

  it('-json prints the versions array', async () => {
    const out = JSON.parse((await cli(['job', 'history', '-json', 'example'])).stdout);
    expect(Array.isArray(out)).toBe(true);
    expect(out.map((v: { Version: number }) => v.Version)).toEqual([1, 0]);
  });

  it('fails for an unknown job and an ambiguous prefix', async () => {
    expect((await cli(['job', 'history', 'zzz'])).code).toBe(1);
    const ambiguous = await cli(['job', 'history', 'exa']);
    expect(ambiguous.code).toBe(1);
    expect(ambiguous.stderr).toMatch(/^Prefix matched multiple jobs/);
  });

  it('-p shows under each version what changed from the one before, as job plan does', async () => {
    const versions = (await srv.client().scheduler<{ Versions: Array<{ SubmitTime: number }> }>('GET', '/v1/job/example/versions')).body.Versions;
    const res = await cli(['job', 'history', '-p', 'example']);
    expect(res.code).toBe(0);
    expect(res.stdout).toBe(
      `Version     = 1\nStable      = false\nSubmit Date = ${utc(versions[0].SubmitTime)}\nDiff        = \n` +
        '+/- Job: "example"\n+/- Priority: "50" => "70"\n    Task Group: "cache"\n      Task: "redis"\n\n' +
        `Version     = 0\nStable      = false\nSubmit Date = ${utc(versions[1].SubmitTime)}\n`,
    );
    const one = await cli(['job', 'history', '-p', '-version', '1', 'example']);
    expect(one.stdout).toMatch(/^Version     = 1\n[^]*Diff        = \n\+\/- Job: "example"\n\+\/- Priority: "50" => "70"\n/);
    expect(one.stdout).not.toContain('Version     = 0');
  });

  it('-p -diff-version compares every version with that one; an unchanged version shows no Diff', async () => {
    const res = await cli(['job', 'history', '-p', '-diff-version', '1', 'example']);
    expect(res.code).toBe(0);
    const [v1, v0] = res.stdout.split('\n\n');
    expect(v1).not.toContain('Diff');
    expect(v0).toContain('Diff        = \n+/- Job: "example"\n+/- Priority: "70" => "50"\n');
  });

  it('refuses the diff flags without -p, together, or with -json; reports an unknown version or tag', async () => {
    const noP = await cli(['job', 'history', '-diff-version', '0', 'example']);
    expect(noP.code).toBe(1);
    expect(noP.stderr).toContain('-diff-tag and -diff-version can only be used with -p');
    const both = await cli(['job', 'history', '-p', '-diff-version', '0', '-diff-tag', 'x', 'example']);
    expect(both.code).toBe(1);
    expect(both.stderr).toContain('-diff-tag and -diff-version are mutually exclusive');
    const json = await cli(['job', 'history', '-p', '-json', 'example']);
    expect(json.code).toBe(1);
    expect(json.stderr).toContain('-json and -t are exclusive with -p and -full');
    const version = await cli(['job', 'history', '-p', '-diff-version', '9', 'example']);
    expect(version.code).toBe(1);
    expect(version.stderr).toContain('version 9 not found');
    const tag = await cli(['job', 'history', '-p', '-diff-tag', 'nope', 'example']);
    expect(tag.code).toBe(1);
    expect(tag.stderr).toContain('tag "nope" not found');
  });
});

describe('svc job status', () => {
  it('lists the jobs of the namespace, sorted by ID', async () => {
    const ex = await currentJob('example');
    const res = await cli(['job', 'status']);
    expect(res.code).toBe(0);
    const lines = res.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^ID +Type +Priority +Status +Submit Date$/);
    expect(lines.slice(1).map((l) => l.split(/ +/)[0])).toEqual(['example', 'example-two', 'nightly']);
    expect(lines[1].split(/ +/)).toEqual(['example', 'service', '70', 'pending', utc(ex.SubmitTime)]);
    expect(lines[3].split(/ +/).slice(0, 2)).toEqual(['nightly', 'batch/periodic']);
    // Columns line up: every row's Type starts where the header's does.
    const col = lines[0].indexOf('Type');
    for (const l of lines.slice(1)) expect(l[col - 1]).toBe(' ');
    for (const l of lines.slice(1)) expect(l[col]).not.toBe(' ');
  });

  it('says "No running jobs" for an empty namespace', async () => {
    const res = await cli(['job', 'status', '-namespace', 'empty']);
    expect(res.code).toBe(0);
    expect(res.stdout).toBe('No running jobs\n');
  });

  it('adds a Namespace column for -namespace=*', async () => {
    const res = await cli(['job', 'status', '-namespace=*']);
    const lines = res.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^ID +Namespace +Type +Priority +Status +Submit Date$/);
    expect(lines.filter((l) => /^example +other +service/.test(l))).toHaveLength(1);
    expect(lines.filter((l) => /^example +default +service/.test(l))).toHaveLength(1);
  });

  it('-json prints the list as a JSON array', async () => {
    const out = JSON.parse((await cli(['job', 'status', '-json'])).stdout);
    expect(out.map((j: { ID: string }) => j.ID)).toEqual(['example', 'example-two', 'nightly']);
  });

  it('shows one job: the header block, the Summary table and why nothing was placed', async () => {
    const ex = await currentJob('example');
    // The scheduler has to have looked at the job: it needs docker, which no node has.
    for (let i = 0; i < 200; i++) {
      const evals = (await srv.client().scheduler<Array<{ Status: string }>>('GET', '/v1/job/example/evaluations')).body;
      if (evals.every((e) => e.Status !== 'pending')) break;
      await new Promise((r) => setTimeout(r, 25));
    }
    const res = await cli(['job', 'status', 'example']);
    expect(res.code).toBe(0);
    expect(res.stdout).toBe(
      [
        'ID            = example',
        'Name          = example',
        `Submit Date   = ${utc(ex.SubmitTime)}`,
        'Type          = service',
        'Priority      = 70',
        'Datacenters   = dc1',
        'Namespace     = default',
        'Node Pool     = default',
        'Status        = pending',
        'Periodic      = false',
        'Parameterized = false',
        '',
        'Summary',
        'Task Group  Queued  Starting  Running  Failed  Complete  Lost  Unknown',
        'cache       1       0         0        0       0         0     0',
        '',
        'Placement Failure',
        'Task Group "cache":',
        '  * Constraint "missing drivers": 1 nodes excluded by filter',
        '',
        'Allocations',
        'No allocations placed',
        '',
      ].join('\n'),
    );
  });

  it('prints Submit Date in the local time zone', async () => {
    const ex = await currentJob('example');
    const res = await cli(['job', 'status', 'example'], { TZ: 'Asia/Kolkata' });
    const shifted = new Date(Math.floor(ex.SubmitTime / 1e6) + 330 * 60_000).toISOString().slice(0, 19);
    expect(res.stdout).toContain(`Submit Date   = ${shifted}+05:30\n`);
    expect(formatNomadTime(0)).toBe('');
  });

  it('-short prints only the header', async () => {
    const res = await cli(['job', 'status', '-short', 'example']);
    expect(res.code).toBe(0);
    expect(res.stdout).toContain('Parameterized = false\n');
    expect(res.stdout).not.toContain('Summary');
  });

  it('shows a periodic job\'s children instead of a group summary', async () => {
    const res = await cli(['job', 'status', 'nightly']);
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(/^Type\s+= batch$/m);
    expect(res.stdout).toMatch(/^Periodic\s+= true$/m);
    expect(res.stdout).toMatch(/^Next Periodic Launch = \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ \(\S+ from now\)$/m);
    expect(res.stdout).not.toContain('\nSummary\n');
    expect(res.stdout).toContain('\nChildren Job Summary\nPending  Running  Dead\n0        0        0\n');
    expect(res.stdout).toContain('\nNo instances of periodic job found\n');
  });

  it('-json with a job prints the job', async () => {
    const out = JSON.parse((await cli(['job', 'status', '-json', 'example'])).stdout);
    expect(out).toMatchObject({ ID: 'example', Version: 1 });
  });

  it('fails for an unknown job and an ambiguous prefix', async () => {
    const unknown = await cli(['job', 'status', 'zzz']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toBe('No job(s) with prefix or id "zzz" found\n');
    const ambiguous = await cli(['job', 'status', 'ex']);
    expect(ambiguous.code).toBe(1);
    expect(ambiguous.stdout).toBe('');
    expect(ambiguous.stderr).toMatch(/^Prefix matched multiple jobs\n\nID +Type/);
  });

  it('marks a stopped job and reads IDs that contain a slash', async () => {
    const base = await parseJobspec(JOB_HCL);
    await register({ ...base, ID: 'web/api', Name: 'web/api', Namespace: 'other' }, {}, 'other');
    await srv.client().scheduler('DELETE', '/v1/job/web%2Fapi', { query: { namespace: 'other' } });
    const list = await cli(['job', 'status', '-namespace', 'other']);
    expect(list.stdout).toMatch(/\nweb\/api +service +50 +\S+ \(stopped\) /);
    const one = await cli(['job', 'status', '-namespace', 'other', 'web/api']);
    expect(one.code).toBe(0);
    expect(one.stdout).toMatch(/\nStatus        = \S+ \(stopped\)\n/);
    expect(JSON.parse((await cli(['job', 'inspect', '-namespace', 'other', 'web/api'])).stdout).Job.ID).toBe('web/api');
  });

  it('shows a parameterized job\'s settings and dispatched children', async () => {
    const hcl = PERIODIC_HCL.replace('job "nightly"', 'job "render"').replace(/periodic \{[^}]*\}/, 'parameterized {\n    payload       = "required"\n    meta_required = ["frame", "scene"]\n  }');
    await register({ ...(await parseJobspec(hcl)), Namespace: 'other' }, {}, 'other');
    const res = await cli(['job', 'status', '-namespace', 'other', 'render']);
    expect(res.code).toBe(0);
    expect(res.stdout).toContain('Parameterized = true\n');
    expect(res.stdout).toContain('\nParameterized Job\nPayload           = required\nRequired Metadata = frame, scene\nOptional Metadata = <none>\n');
    expect(res.stdout).toContain('\nParameterized Job Summary\nPending  Running  Dead\n0        0        0\n');
    expect(res.stdout).toContain('\nNo dispatched instances of parameterized job found\n');
    const list = await cli(['job', 'status', '-namespace', 'other']);
    expect(list.stdout).toMatch(/\nrender +batch\/parameterized +50 /);
  });

  it('finds a job in another namespace with -namespace', async () => {
    const res = await cli(['job', 'status', '-namespace', 'other', 'example']);
    expect(res.code).toBe(0);
    expect(res.stdout).toContain('Namespace     = other\n');
    expect(res.stdout).toContain('Priority      = 50\n');
  });
});

describe('job files in subdirectories', () => {
  it('resolves file() against the job file\'s directory', async () => {
    const sub = path.join(dir, 'sub');
    await mkdir(sub, { recursive: true });
    await writeFile(path.join(sub, 'cmd.txt'), '/bin/echo');
    await writeFile(
      path.join(sub, 'f.nomad.hcl'),
      'job "f" {\n  group "g" {\n    task "t" {\n      driver = "exec"\n      config {\n        command = file("cmd.txt")\n      }\n    }\n  }\n}\n',
    );
    const { job } = await loadJobFile({ path: path.join(sub, 'f.nomad.hcl') });
    expect((job.TaskGroups as Array<{ Tasks: Array<{ Config: { command: string } }> }>)[0].Tasks[0].Config.command).toBe('/bin/echo');
    expect((await cli(['job', 'validate', path.join(sub, 'f.nomad.hcl')])).code).toBe(0);
  });
});
