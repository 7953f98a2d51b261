/**
 * Golden round trips of every job file in examples/jobs/ and test/jobspec/golden/jobs/ (the blocks the
 * examples leave out, gathered from the mapping tests' inline jobs), so that redeclaring the scheduler's
 * structs (field tables, jobspec mapping, defaults) can be shown to change no byte of what a job file
 * becomes. Per file, under test/jobspec/golden/<name>.*.json:
 *
 *   parsed      the API job as `svc job run` reads the file (what `-output` prints and what it sends);
 *               POST /v1/jobs/parse without Canonicalize gives the same
 *   canonical   that job canonicalised as the server does before it validates and stores it;
 *               POST /v1/jobs/parse with Canonicalize=true gives the same
 *   registered  GET /v1/job/:id after registering, through the in-process server, both the job as
 *               `svc job run` sends it and the canonical job; only what differs per run is masked:
 *               the indexes and submit time the store assigns, the registering token's accessor
 *
 * Goldens are compared as text (JSON, two-space indent, key order kept), so a moved or renamed field
 * fails too. A variable with no default gets the value the file's leading comment passes with -var.
 *
 * After a change that is meant to alter the output, rewrite the goldens and review their diff:
 *
 *   UPDATE_GOLDEN=1 npx vitest run test/jobspec/golden.test.ts
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildJobSubmission, jobFileDir, parseJobspec, type ParseJobspecOptions } from '../../src/jobspec/index.js';
import { canonicalizeJob } from '../../src/scheduler/structs/index.js';
import { startInProcessServer, type InProcessServer } from '../support/in-process.js';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const GOLDEN = fileURLToPath(new URL('./golden/', import.meta.url));
const UPDATE = process.env.UPDATE_GOLDEN === '1';

/** Job files by name: HCL, and HCL-JSON, which only fixtures here are written in. */
const JOB_FILE = /\.(nomad|hcl|json)$/;
const SOURCES = ['examples/jobs', 'test/jobspec/golden/jobs'];
const files = SOURCES.flatMap((dir) =>
  existsSync(join(REPO, dir))
    ? readdirSync(join(REPO, dir))
        .filter((f) => JOB_FILE.test(f))
        .sort()
        .map((f) => `${dir}/${f}`)
    : [],
);

/** `-var` flags from a leading `# svc job run -var a=b ... <file>` comment, as the examples show them. */
function varFlags(text: string): Record<string, string> {
  const shown = /^#\s+svc job run (.*)$/m.exec(text)?.[1] ?? '';
  const vars: Record<string, string> = {};
  for (const m of shown.matchAll(/-var[= ](\S+?)=(\S+)/g)) vars[m[1]] = m[2];
  return vars;
}

/** The golden's name: the file name without its job-file extension, prefixed when it is not an example. */
function goldenName(file: string): string {
  const name = basename(file).replace(/(\.nomad)?\.(hcl|json)$|\.nomad$/, '');
  return file.startsWith('examples/') ? name : `fixture-${name}`;
}

const text = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

function matchGolden(name: string, value: unknown): void {
  const path = join(GOLDEN, name);
  if (UPDATE) {
    mkdirSync(GOLDEN, { recursive: true });
    writeFileSync(path, text(value));
    return;
  }
  expect(existsSync(path), `${name} missing: run with UPDATE_GOLDEN=1`).toBe(true);
  expect(text(value)).toBe(readFileSync(path, 'utf8'));
}

/** Fields the store assigns at register, and the registering token's accessor, which is new per server. */
const ASSIGNED = ['CreateIndex', 'ModifyIndex', 'JobModifyIndex', 'SubmitTime', 'NomadTokenID'];
const masked = (job: Record<string, unknown>) => Object.fromEntries(Object.entries(job).map(([k, v]) => [k, ASSIGNED.includes(k) ? `<${k}>` : v]));

describe('job files round trip byte for byte (golden)', () => {
  let srv: InProcessServer;

  beforeAll(async () => {
    srv = await startInProcessServer();
  });

  afterAll(async () => {
    await srv?.close();
  });

  it('finds the example job files', () => {
    expect(files.filter((f) => f.startsWith('examples/')).length).toBeGreaterThan(0);
  });

  it('has no golden without a job file', () => {
    const names = new Set(files.map(goldenName));
    const stale = readdirSync(GOLDEN)
      .filter((f) => f.endsWith('.json'))
      .map((f) => f.replace(/\.(parsed|canonical|registered)\.json$/, ''))
      .filter((n) => !names.has(n));
    expect(stale).toEqual([]);
  });

  for (const file of files) {
    describe(file, () => {
      const name = goldenName(file);
      const path = join(REPO, file);
      const source = readFileSync(path, 'utf8');
      const variables = varFlags(source);
      // What loadJobFile gives parseJobspec for `svc job run <file>` with an empty environment.
      const opts: ParseJobspecOptions = { filename: basename(path), variables, varFiles: [], env: {}, baseDir: jobFileDir(path) };
      // The parse endpoint takes variables only as a var file.
      const varFile = Object.entries(variables)
        .map(([k, v]) => `${k} = ${JSON.stringify(v)}\n`)
        .join('');
      const parseBody = { JobHCL: source, ...(varFile ? { Variables: varFile } : {}) };

      it('parses as svc job run reads it', async () => {
        matchGolden(`${name}.parsed.json`, await parseJobspec(source, opts));
      });

      it('canonicalises as the server does', async () => {
        matchGolden(`${name}.canonical.json`, canonicalizeJob(await parseJobspec(source, opts)));
      });

      it('POST /v1/jobs/parse gives the same, with and without Canonicalize', async () => {
        if (UPDATE) return;
        for (const [canonicalize, golden] of [
          [false, 'parsed'],
          [true, 'canonical'],
        ] as const) {
          const res = await srv.request('POST', '/v1/jobs/parse', { body: { ...parseBody, Canonicalize: canonicalize } });
          expect(res.status, JSON.stringify(res.body)).toBe(200);
          expect(text(res.body)).toBe(readFileSync(join(GOLDEN, `${name}.${golden}.json`), 'utf8'));
        }
      });

      it('reads back from GET /v1/job/:id as registered', async () => {
        const job = await parseJobspec(source, opts);
        const submission = buildJobSubmission(source, opts);
        const canonical = canonicalizeJob(job);
        const query = job.Namespace ? `?namespace=${encodeURIComponent(String(job.Namespace))}` : '';
        const jobPath = `/v1/job/${encodeURIComponent(canonical.ID)}${query}`;
        const readBack: string[] = [];
        for (const body of [{ Job: job, Submission: submission }, { Job: canonical }]) {
          const put = await srv.request('PUT', `/v1/jobs${query}`, { body });
          expect(put.status, JSON.stringify(put.body)).toBe(200);
          const got = await srv.request('GET', jobPath);
          expect(got.status, JSON.stringify(got.body)).toBe(200);
          readBack.push(text(masked(got.body as Record<string, unknown>)));
          const purge = await srv.request('DELETE', `${jobPath}${query ? '&' : '?'}purge=true`);
          expect(purge.status, JSON.stringify(purge.body)).toBe(200);
        }
        expect(readBack[1], 'the canonical job reads back as the job svc job run sends').toBe(readBack[0]);
        matchGolden(`${name}.registered.json`, JSON.parse(readBack[0]));
      });
    });
  }
});
