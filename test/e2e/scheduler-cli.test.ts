/**
 * The scheduler commands through the built bin/svc against a real server with its own node (mock
 * driver and raw_exec): job run and its monitor, job status/allocs/eval/stop, eval status/list,
 * alloc status/signal/restart/stop, node status, prefixes and -json output.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTempDir, startTestServer, type TestServer } from '../support/server.js';
import type { AllocStub } from '../../src/api/allocs.js';
import type { Evaluation } from '../../src/api/evals.js';

let srv: TestServer;
let dir: string;

const cli = (args: string[], input?: string) => srv.cli(args, { env: { TZ: 'UTC' }, input });
const file = (name: string) => path.join(dir, name);

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/;
const TIME = /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(Z|[+-]\d\d:\d\d)/;

// Service jobs roll out under a deployment, which job run follows: a short min_healthy_time keeps it quick.
const mockJob = (id: string, count = 2, memory = 32) => `job "${id}" {
  group "cache" {
    count = ${count}
    update {
      min_healthy_time = "300ms"
    }
    task "redis" {
      driver = "mock"
      config {
        run_for = "10m"
      }
      resources {
        cpu    = 20
        memory = ${memory}
      }
    }
  }
}
`;

const SLEEP_JOB = `job "sleeper" {
  group "g" {
    update {
      min_healthy_time = "300ms"
    }
    restart {
      attempts = 3
      delay    = "1s"
    }
    task "sleep" {
      driver = "raw_exec"
      config {
        command = "/bin/sleep"
        args    = ["300"]
      }
      resources {
        cpu    = 20
        memory = 16
      }
    }
  }
}
`;

const PERIODIC_JOB = `job "nightly" {
  type = "batch"
  periodic {
    crons = ["0 3 * * *"]
  }
  group "g" {
    task "t" {
      driver = "mock"
      config {
        run_for = "1s"
      }
    }
  }
}
`;

async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

async function allocsOf(job: string): Promise<AllocStub[]> {
  return (await srv.client().scheduler<AllocStub[]>('GET', `/v1/job/${job}/allocations`)).body;
}

async function runningAllocs(job: string, n: number): Promise<AllocStub[]> {
  return until(`${n} running allocations of ${job}`, async () => {
    const running = (await allocsOf(job)).filter((a) => a.ClientStatus === 'running' && a.DesiredStatus === 'run');
    return running.length >= n ? running : undefined;
  });
}

beforeAll(async () => {
  srv = await startTestServer({ client: { enableMockDriver: true, stopTasksOnShutdown: true } });
  dir = await makeTempDir('svc-sched-cli-');
  await writeFile(file('web.nomad.hcl'), mockJob('web'));
  await writeFile(file('webapp.nomad.hcl'), mockJob('webapp', 1));
  await writeFile(file('big.nomad.hcl'), mockJob('big', 1, 10_000_000));
  await writeFile(file('sleeper.nomad.hcl'), SLEEP_JOB);
  await writeFile(file('nightly.nomad.hcl'), PERIODIC_JOB);
  await until('the node to be ready', async () => {
    const { body } = await srv.client().scheduler<Array<{ Status: string }>>('GET', '/v1/nodes');
    return body.some((n) => n.Status === 'ready') ? true : undefined;
  });
}, 60_000);

afterAll(async () => {
  await srv?.close();
});

describe('svc job run', () => {
  it('submits a job and monitors its evaluation to the placed allocations, then its deployment', async () => {
    const res = await cli(['job', 'run', file('web.nomad.hcl')]);
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    const lines = res.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(new RegExp(`^==> ${TIME.source}: Monitoring evaluation "[0-9a-f]{8}"$`));
    expect(res.stdout).toMatch(/\n {4}\S+: Evaluation triggered by job "web"\n/);
    expect(lines.filter((l) => /: Allocation "[0-9a-f]{8}" created: node "[0-9a-f]{8}", group "cache"$/.test(l))).toHaveLength(2);
    const finished = lines.findIndex((l) => /^==> \S+: Evaluation "[0-9a-f]{8}" finished with status "complete"$/.test(l));
    expect(finished).toBeGreaterThan(0);
    // A service job rolls out under a deployment: the monitor follows it to the end.
    const deployment = /^==> \S+: Monitoring deployment "([0-9a-f]{8})"$/.exec(lines[finished + 1])?.[1];
    expect(deployment).toBeDefined();
    expect(res.stdout).toMatch(/\n {4}Job ID {6}= web\n {4}Job Version = 0\n {4}Status {6}= successful\n/);
    expect(lines.at(-1)).toBe(`  ✓ Deployment "${deployment}" successful`);
    await runningAllocs('web', 2);
  });

  it('-detach prints the evaluation ID; `svc run` is the same command', async () => {
    const res = await cli(['run', '-detach', file('webapp.nomad.hcl')]);
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(new RegExp(`^Job registration successful\\nEvaluation ID: ${UUID.source}\\n$`));
    await runningAllocs('webapp', 1);
  });

  it('-verbose prints full IDs', async () => {
    const res = await cli(['job', 'run', '-verbose', file('web.nomad.hcl')]);
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(new RegExp(`Monitoring evaluation "${UUID.source}"`));
  });

  it('exits 2 and explains why when allocations cannot be placed', async () => {
    const res = await cli(['job', 'run', file('big.nomad.hcl')]);
    expect(res.code).toBe(2);
    expect(res.stdout).toMatch(/==> \S+: Evaluation "[0-9a-f]{8}" finished with status "complete" but failed to place all allocations:\n/);
    expect(res.stdout).toMatch(/ {4}\S+: Task Group "cache" \(failed to place 1 allocation\):\n/);
    expect(res.stdout).toMatch(/\n {6}\* (Resources exhausted on 1 nodes|Dimension "memory" exhausted on 1 nodes)\n/);
    expect(res.stdout).toMatch(/ {4}\S+: Evaluation "[0-9a-f]{8}" waiting for additional capacity to place remainder\n$/);
  });

  it('registers a periodic job without an evaluation', async () => {
    const res = await cli(['job', 'run', file('nightly.nomad.hcl')]);
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(/^Job registration successful\nApproximate next launch time: \d{4}-\d\d-\d\dT03:00:00Z \(\S+ from now\)\n$/);
  });

  it('prints the server\'s warnings first', async () => {
    const res = await cli(['job', 'run', '-'], PERIODIC_JOB.replace('job "nightly"', 'job "legacy"').replace('crons = ["0 3 * * *"]', 'cron = "0 3 * * *"'));
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(/^Job Warnings:\n.*cron is deprecated.*\n\nJob registration successful\nApproximate next launch time: .+ from now\)\n$/);
  });

  it('-json submits what job inspect prints', async () => {
    const inspected = await cli(['job', 'inspect', 'webapp']);
    const res = await cli(['job', 'run', '-json', '-detach', '-'], inspected.stdout);
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(/^Job registration successful\nEvaluation ID: /);
  });

  it('-output prints the API request and submits nothing', async () => {
    const res = await cli(['job', 'run', '-output', file('webapp.nomad.hcl').replace('webapp', 'web')]);
    expect(res.code).toBe(0);
    expect(JSON.parse(res.stdout).Job.ID).toBe('web');
    const fresh = await cli(['job', 'run', '-output', '-'], mockJob('never-submitted'));
    expect(JSON.parse(fresh.stdout).Job.ID).toBe('never-submitted');
    expect((await cli(['job', 'status', 'never-submitted'])).code).toBe(1);
  });

  it('-check-index refuses a stale modify index', async () => {
    const res = await cli(['job', 'run', '-check-index', '1', file('web.nomad.hcl')]);
    expect(res.code).toBe(1);
    expect(res.stderr).toMatch(/^Enforcing job modify index 1: .*\nJob not updated\n$/);
  });

  it('fails with exit 1 on an unreadable job file', async () => {
    const res = await cli(['job', 'run', file('missing.nomad.hcl')]);
    expect(res.code).toBe(1);
    expect(res.stderr).toContain('Error getting job struct: ');
  });
});

describe('svc job status, allocs and eval', () => {
  it('shows the summary and the allocations of a job', async () => {
    const res = await cli(['job', 'status', 'web']);
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(/\nSummary\nTask Group +Queued +Starting +Running +Failed +Complete +Lost +Unknown\ncache +0 +0 +2 +0 +\d+ +0 +0\n/);
    expect(res.stdout).toMatch(/\nLatest Deployment\nID {10}= [0-9a-f]{8}\nStatus {6}= successful\nDescription = Deployment completed successfully\n\nDeployed\nTask Group +Desired +Placed +Healthy +Unhealthy +Progress Deadline\ncache +2 +2 +2 +0 +\S+\n\nAllocations\n/);
    const allocs = res.stdout.slice(res.stdout.indexOf('\nAllocations\n'));
    const rows = allocs.trimEnd().split('\n').slice(2);
    expect(allocs.split('\n')[2]).toMatch(/^ID +Node ID +Task Group +Version +Desired +Status +Created +Modified$/);
    expect(rows.filter((r) => /^[0-9a-f]{8} +[0-9a-f]{8} +cache +\d+ +run +running +\S+ ago +\S+ ago$/.test(r.replace(/(\d+[a-z]+)+ ago/g, '1s ago')))).toHaveLength(2);
  });

  it('-evals lists the evaluations; a blocked job shows its placement failure', async () => {
    const res = await cli(['job', 'status', '-evals', 'big']);
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(/\nEvaluations\nID +Priority +Triggered By +Status +Placement Failures\n/);
    expect(res.stdout).toMatch(/\n[0-9a-f]{8} +50 +\S+ +blocked +N\/A - In Progress\n/);
    expect(res.stdout).toMatch(/\nPlacement Failure\nTask Group "cache":\n {2}\* /);
    expect(res.stdout).toContain('\nAllocations\nNo allocations placed\n');
  });

  it('job allocs lists the allocations, and as JSON', async () => {
    const res = await cli(['job', 'allocs', 'web']);
    expect(res.code).toBe(0);
    expect(res.stdout.split('\n')[0]).toMatch(/^ID +Node ID +Task Group +Version +Desired +Status +Created +Modified$/);
    const json = JSON.parse((await cli(['job', 'allocs', '-json', 'web'])).stdout) as AllocStub[];
    expect(json.filter((a) => a.ClientStatus === 'running')).toHaveLength(2);
    const verbose = await cli(['job', 'allocs', '-verbose', 'web']);
    expect(verbose.stdout).toMatch(new RegExp(`\\n${UUID.source} +${UUID.source} +${UUID.source} +\\S+ +cache `));
  });

  it('job eval creates an evaluation and monitors it, or prints it with -detach', async () => {
    const detached = await cli(['job', 'eval', '-detach', 'web']);
    expect(detached.code).toBe(0);
    expect(detached.stdout).toMatch(/^Created eval ID: "[0-9a-f]{8}"\n$/);
    const res = await cli(['job', 'eval', 'web']);
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(/finished with status "complete"\n$/);
  });

  it('refuses an ambiguous job prefix and an unknown job', async () => {
    const res = await cli(['job', 'allocs', 'we']);
    expect(res.code).toBe(1);
    expect(res.stderr).toMatch(/^Prefix matched multiple jobs\n\nID +Type +Priority +Status +Submit Date\nweb +service/);
    const unknown = await cli(['job', 'eval', 'zzz']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toBe('No job(s) with prefix or id "zzz" found\n');
  });
});

describe('svc eval', () => {
  it('eval list shows the evaluations, filtered by job and status', async () => {
    const res = await cli(['eval', 'list', '-job', 'big']);
    expect(res.code).toBe(0);
    expect(res.stdout.split('\n')[0]).toMatch(/^ID +Priority +Triggered By +Job ID +Namespace +Node ID +Status +Placement Failures$/);
    expect(res.stdout).toMatch(/\n[0-9a-f]{8} +50 +job-register +big +default +<none> +complete +true\n/);
    const blocked = JSON.parse((await cli(['eval', 'list', '-status', 'blocked', '-json'])).stdout) as Evaluation[];
    expect(blocked.map((e) => e.JobID)).toContain('big');
    expect(blocked.every((e) => e.Status === 'blocked')).toBe(true);
    expect((await cli(['eval', 'list', '-job', 'nothing-here'])).stdout).toBe('No evals found\n');
  });

  it('eval list pages with -per-page and prints the next page command', async () => {
    const res = await cli(['eval', 'list', '-per-page', '1']);
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(/\nResults have been paginated\. To get the next page run:\n\nsvc eval list -per-page 1 -page-token \S+\n$/);
    const token = /-page-token (\S+)\n$/.exec(res.stdout)![1];
    const next = await cli(['eval', 'list', '-per-page', '1', '-page-token', token]);
    expect(next.code).toBe(0);
    expect(next.stdout.split('\n')[1]).not.toBe(res.stdout.split('\n')[1]);
  });

  it('eval status shows an evaluation by prefix, with its failed placements', async () => {
    const { body } = await srv.client().scheduler<Evaluation[]>('GET', '/v1/evaluations', { query: { job: 'big' } });
    const failed = body.find((e) => e.Status === 'complete' && Object.keys(e.FailedTGAllocs ?? {}).length > 0)!;
    const res = await cli(['eval', 'status', failed.ID.slice(0, 6)]);
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(new RegExp(`^ID +\\= ${failed.ID.slice(0, 8)}\\nCreate Time +\\= \\S+ ago\\nModify Time +\\= \\S+ ago\\nStatus +\\= complete\\n`));
    expect(res.stdout).toContain('Placement Failures = true\n');
    expect(res.stdout).toMatch(/\nFailed Placements\nTask Group "cache" \(failed to place 1 allocation\):\n {2}\* /);
    expect(res.stdout).toMatch(/\nEvaluation "[0-9a-f]{8}" waiting for additional capacity to place remainder\n$/);
    const json = JSON.parse((await cli(['eval', 'status', '-json', failed.ID])).stdout) as Evaluation;
    expect(json.ID).toBe(failed.ID);
    const verbose = await cli(['eval', 'status', '-verbose', failed.ID]);
    expect(verbose.stdout).toContain(`ID                 = ${failed.ID}\n`);
    expect(verbose.stdout).toMatch(new RegExp(`Blocked Eval +\\= ${UUID.source}\\n`));
  });

  it('eval status refuses unknown and too short IDs', async () => {
    const unknown = await cli(['eval', 'status', '00000000']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toBe('No evaluation(s) with prefix or id "00000000" found\n');
    const short = await cli(['eval', 'status', 'a']);
    expect(short.code).toBe(1);
    expect(short.stderr).toBe('Identifier must contain at least two characters.\n');
  });
});

describe('svc alloc', () => {
  let sleeper: AllocStub;

  beforeAll(async () => {
    const res = await cli(['job', 'run', file('sleeper.nomad.hcl')]);
    expect(res.code).toBe(0);
    [sleeper] = await runningAllocs('sleeper', 1);
  }, 30_000);

  it('alloc status shows the allocation, its task and events', async () => {
    const res = await cli(['alloc', 'status', sleeper.ID.slice(0, 8)]);
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    expect(res.stdout).toContain(`ID                  = ${sleeper.ID}\n`);
    expect(res.stdout).toContain(`Name                = sleeper.g[0]\n`);
    expect(res.stdout).toContain('Client Status       = running\n');
    expect(res.stdout).toContain('\nTask "sleep" is "running"\nTask Resources:\nCPU     Memory  Disk     Addresses\n20 MHz  16 MiB  300 MiB\n');
    expect(res.stdout).toMatch(new RegExp(`\\nTask Events:\\nStarted At     = ${TIME.source}\\nFinished At    = N/A\\nTotal Restarts = 0\\n`));
    const events = res.stdout.slice(res.stdout.indexOf('Recent Events:\n')).trimEnd().split('\n');
    expect(events[1]).toMatch(/^Time +Type +Description$/);
    expect(events[2]).toMatch(/ Started +Task started by client$/);
    expect(events.at(-1)).toMatch(/ Received +Task received by client$/);
  });

  it('alloc status -short and -json', async () => {
    const short = await cli(['alloc', 'status', '-short', sleeper.ID]);
    expect(short.code).toBe(0);
    expect(short.stdout).toMatch(/\nTasks\nName +State +Last Event +Time +Lifecycle\nsleep +running +Started +\S+ +main\n$/);
    const json = JSON.parse((await cli(['alloc', 'status', '-json', sleeper.ID])).stdout);
    expect(json.ID).toBe(sleeper.ID);
    expect(json.TaskStates.sleep.State).toBe('running');
  });

  it('alloc status refuses unknown IDs', async () => {
    const res = await cli(['alloc', 'status', '0000000']);
    expect(res.code).toBe(1);
    expect(res.stderr).toBe('No allocation(s) with prefix or id "0000000" found\n');
  });

  it('alloc restart restarts the task in place, silently', async () => {
    const res = await cli(['alloc', 'restart', sleeper.ID.slice(0, 8), 'sleep']);
    expect(res).toEqual({ code: 0, stdout: '', stderr: '' });
    await until('the restart to show', async () => {
      const status = await cli(['alloc', 'status', sleeper.ID]);
      return /Total Restarts = 1\n/.test(status.stdout) && /Task "sleep" is "running"/.test(status.stdout) ? true : undefined;
    });
    const both = await cli(['alloc', 'restart', '-task', 'sleep', '-all-tasks', sleeper.ID]);
    expect(both.code).toBe(1);
    expect(both.stderr).toContain('The -task and -all-tasks options are mutually exclusive');
    const badTask = await cli(['alloc', 'restart', sleeper.ID, 'nope']);
    expect(badTask.code).toBe(1);
    expect(badTask.stderr).toBe('Could not find task named: nope, found:\nsleep\n');
  });

  it('alloc signal sends a signal, silently', async () => {
    const res = await cli(['alloc', 'signal', '-s', 'SIGUSR1', sleeper.ID, 'sleep']);
    expect(res).toEqual({ code: 0, stdout: '', stderr: '' });
    await until('the signal event', async () => {
      const status = await cli(['alloc', 'status', sleeper.ID]);
      return /Signaling +Task being sent signal SIGUSR1/.test(status.stdout) ? true : undefined;
    });
  });

  it('alloc stop stops the allocation and monitors the replacement', async () => {
    const [alloc] = await runningAllocs('webapp', 1);
    const res = await cli(['alloc', 'stop', alloc.ID.slice(0, 8)]);
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(/^==> \S+: Monitoring evaluation "[0-9a-f]{8}"\n/);
    expect(res.stdout).toMatch(/finished with status "complete"\n$/);
    await until('the stopped allocation and its replacement', async () => {
      const allocs = await allocsOf('webapp');
      const old = allocs.find((a) => a.ID === alloc.ID);
      return old?.DesiredStatus === 'stop' && allocs.some((a) => a.ID !== alloc.ID && a.ClientStatus === 'running') ? true : undefined;
    });
  });

  it('alloc stop -detach prints the follow-up evaluation ID', async () => {
    const [alloc] = await runningAllocs('webapp', 1);
    const res = await cli(['alloc', 'stop', '-detach', alloc.ID]);
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(new RegExp(`^${UUID.source}\\n$`));
  });
});

describe('svc node status', () => {
  it('lists the node and shows it by prefix', async () => {
    const list = await cli(['node', 'status']);
    expect(list.code).toBe(0);
    const [head, row] = list.stdout.split('\n');
    expect(head).toMatch(/^ID +Node Pool +DC +Name +Class +Drain +Eligibility +Status$/);
    expect(row).toMatch(/^[0-9a-f]{8} +default +dc1 +\S+ +<none> +false +eligible +ready$/);
    const prefix = row.slice(0, 4);
    const one = await cli(['node', 'status', prefix]);
    expect(one.code).toBe(0);
    expect(one.stdout).toMatch(new RegExp(`^ID +\\= ${prefix}`));
    expect(one.stdout).toMatch(/\nDriver Status +\= \S*mock\S*\n/);
    expect(one.stdout).toMatch(/\nNode Events\nTime +Subsystem +Message\n/);
    expect(one.stdout).toMatch(/\nAllocated Resources\nCPU +Memory +Disk\n\d+\/\d+ MHz +/);
    expect(one.stdout).toMatch(/\nAllocations\nID +Node ID +Task Group +Version +Desired +Status +Created +Modified\n/);
  });

  it('-json output parses', async () => {
    const list = JSON.parse((await cli(['node', 'status', '-json'])).stdout) as Array<{ ID: string }>;
    expect(list).toHaveLength(1);
    const one = JSON.parse((await cli(['node', 'status', '-json', list[0].ID])).stdout);
    expect(one.ID).toBe(list[0].ID);
    const unknown = await cli(['node', 'status', '00000000']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toBe('No node(s) with prefix "00000000" found\n');
  });
});

describe('svc job stop', () => {
  it('refuses an ambiguous prefix', async () => {
    const res = await cli(['job', 'stop', '-yes', 'we']);
    expect(res.code).toBe(1);
    expect(res.stderr).toMatch(/^Prefix matched multiple jobs\n/);
  });

  it('stops a job and monitors the evaluation; the job stays, marked stopped', async () => {
    const res = await cli(['job', 'stop', 'sleeper']);
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(/Evaluation triggered by job "sleeper"\n/);
    expect(res.stdout).toMatch(/finished with status "complete"\n$/);
    const status = await cli(['job', 'status', 'sleeper']);
    expect(status.stdout).toMatch(/\nStatus +\= \S+ \(stopped\)\n/);
    await until('the stopped allocation', async () => ((await allocsOf('sleeper')).every((a) => a.DesiredStatus === 'stop') ? true : undefined));
  });

  it('-purge -detach removes the job and prints the evaluation ID; `svc stop` is the same command', async () => {
    const res = await cli(['stop', '-purge', '-detach', 'webapp']);
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(new RegExp(`^${UUID.source}\\n$`));
    const status = await cli(['job', 'status', 'webapp']);
    expect(status.code).toBe(1);
    expect(status.stderr).toBe('No job(s) with prefix or id "webapp" found\n');
  });

  it('without a terminal, stops a job named by a unique prefix only with -yes, whatever stdin holds', async () => {
    const refused = await cli(['job', 'stop', '-detach', 'bi'], 'y\n');
    expect(refused.code).toBe(1);
    expect(refused.stdout).toBe('');
    expect(refused.stderr.split('\n')[0]).toMatch(/^"bi" is a prefix of job "\S+": pass the full ID, or -yes to stop it without confirmation$/);
    expect(refused.stderr).toContain('Usage: svc job stop [options] JOB...');
    const res = await cli(['job', 'stop', '-detach', '-yes', 'bi']);
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(new RegExp(`^${UUID.source}\\n$`));
  });
});
