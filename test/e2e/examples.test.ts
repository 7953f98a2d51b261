/**
 * Every job in examples/jobs/ runs on `svc server -dev` as a user would run it: after the `svc kv put`
 * and `svc policy write` its comment shows, with `svc job run` (the way the comment shows, when it shows
 * one), then its allocations placed and running (services, system jobs) or complete (batch jobs; a
 * periodic job's child launched with `svc job periodic force`), then `svc job stop -purge`. A job whose
 * driver svc does not have must say so in its comment, and `svc job run` must report it.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../../src/api/http/client.js';
import type { Allocation } from '../../src/scheduler/structs/allocation.js';
import type { Job } from '../../src/scheduler/structs/job.js';
import type { Node } from '../../src/scheduler/structs/node.js';
import { makeTempDir, REPO, runCli, type CliResult } from '../support/server.js';
import { spawnServer, stopServer, type SpawnedServer } from '../support/spawn-server.js';
import { until } from '../support/wait.js';

const DIR = path.join(REPO, 'examples/jobs');
const files = readdirSync(DIR).filter((f) => f.endsWith('.hcl')).sort();

let home: string;
let server: SpawnedServer;
let api: ApiClient;
let drivers: Set<string>;

const svc = (args: string[]): Promise<CliResult> => runCli(args, { HOME: home, SVC_ADDR: server.url, SVC_TOKEN: server.rootToken, NO_COLOR: '1' });

/** `svc job run` as the file's leading comment shows it (run from the checkout), else plain. */
function runArgs(file: string, text: string): string[] {
  const shown = /^#\s+svc (job run .*)$/m.exec(text)?.[1];
  if (!shown) return ['job', 'run', path.join(DIR, file)];
  const args = shown.trim().split(/\s+/);
  expect(args.at(-1), 'the comment runs this file').toBe(`examples/jobs/${file}`);
  return [...args.slice(0, -1), path.join(DIR, file)];
}

/**
 * What the file's comment says to do before `svc job run`: the secrets and policies it reads
 * (`svc kv put ...`, `svc policy write ...`), with the checkout's files.
 */
function setupArgs(text: string): string[][] {
  return [...text.matchAll(/^#\s+svc ((?:kv put|policy write) .*)$/gm)].map((m) => m[1].trim().split(/\s+/).map((a) => (a.startsWith('examples/') ? path.join(REPO, a) : a)));
}

const allocsOf = async (id: string) => (await api.scheduler<Allocation[]>('GET', `/v1/job/${encodeURIComponent(id)}/allocations`)).body;

/** Waits until the job's allocations all did what its type promises; a failed one fails the wait at once. */
async function settled(job: Job, want: number): Promise<Allocation[]> {
  const done = job.Type === 'batch' || job.Type === 'sysbatch' ? ['complete'] : ['running'];
  return until(
    () => allocsOf(job.ID),
    (allocs) => {
      const failed = allocs.filter((a) => a.ClientStatus === 'failed' || a.ClientStatus === 'lost');
      if (failed.length > 0) throw new Error(`${job.ID}: ${JSON.stringify(failed.map((a) => a.TaskStates))}`);
      return allocs.length === want && allocs.every((a) => done.includes(a.ClientStatus));
    },
    `${job.ID}'s allocations ${done.join(' or ')}`,
    60_000,
  );
}

beforeAll(async () => {
  home = await makeTempDir('svc-examples-');
  server = await spawnServer(['-dev', '-port=0'], { HOME: home, TMPDIR: home });
  api = new ApiClient({ address: server.url, token: server.rootToken });
  const [stub] = (await api.scheduler<Array<{ ID: string }>>('GET', '/v1/nodes')).body;
  const node = (await api.scheduler<Node>('GET', `/v1/node/${stub.ID}`)).body;
  drivers = new Set(Object.keys(node.Drivers));
});

afterAll(async () => {
  await stopServer(server);
  await rm(home, { recursive: true, force: true });
}, 60_000);

describe('examples/jobs on svc server -dev', () => {
  for (const file of files) {
    it(file, async () => {
      const text = readFileSync(path.join(DIR, file), 'utf8');
      const args = runArgs(file, text);
      const missing = [...text.matchAll(/^\s*driver\s*=\s*"(\w+)"/gm)].map((m) => m[1]).filter((d) => !drivers.has(d));

      for (const setup of setupArgs(text)) {
        const done = await svc(setup);
        expect(done.code, done.stdout + done.stderr).toBe(0);
      }
      const run = await svc(args);
      if (missing.length > 0) {
        for (const d of new Set(missing)) expect(text, 'the comment says the driver is missing').toMatch(new RegExp(`^#.*needs the ${d} driver, which svc does not have`, 'm'));
        expect(run.code, run.stdout + run.stderr).toBe(2);
        expect(run.stdout).toContain('Constraint "missing drivers"');
      } else {
        expect(run.code, run.stdout + run.stderr).toBe(0);
      }
      const id = /^job "([^"]+)"/m.exec(text)![1];
      const job = (await api.scheduler<Job>('GET', `/v1/job/${id}`)).body;

      if (missing.length === 0) {
        if (job.Periodic?.Enabled) {
          const force = await svc(['job', 'periodic', 'force', id]);
          expect(force.code, force.stdout + force.stderr).toBe(0);
          const child = /Evaluation triggered by job "([^"]+)"/.exec(force.stdout)![1];
          await settled((await api.scheduler<Job>('GET', `/v1/job/${encodeURIComponent(child)}`)).body, 1);
        } else {
          const want = job.Type === 'system' || job.Type === 'sysbatch' ? 1 : job.TaskGroups.reduce((n, g) => n + g.Count, 0);
          const allocs = await settled(job, want);
          if (job.Type === 'service' || job.Type === 'system') {
            for (const a of allocs) for (const [task, state] of Object.entries(a.TaskStates ?? {})) expect({ task, restarts: state.Restarts }).toEqual({ task, restarts: 0 });
          }
        }
      }

      const stop = await svc(['job', 'stop', '-purge', id]);
      expect(stop.code, stop.stdout + stop.stderr).toBe(0);
    }, 120_000);
  }
});
