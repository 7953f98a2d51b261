/**
 * Property-based fuzzing of every endpoint of both APIs, generated from the endpoints' own declarations
 * (the secrets side's path patterns and field schemas, the scheduler's route table and query schemas):
 *   - no input gets a 5xx;
 *   - a refused request (4xx) on the secrets side writes nothing (the store's index does not move);
 *   - after a run on the scheduler side, every list stub still equals the record it mirrors;
 *   - without a token, every endpoint that needs one answers 403.
 * fast-check picks a new seed each run and prints it with the shrunk request when a property fails;
 * pass it back with FUZZ_SEED to replay.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Backend, PathDef } from '../../src/secrets/framework/path.js';
import type { Operation } from '../../src/framework/schema/field-schema.js';
import { sysBackend } from '../../src/secrets/sys/backend.js';
import { tokenTidySettled } from '../../src/secrets/token/path-tidy.js';
import { identityBackend } from '../../src/secrets/identity/backend.js';
import { tokenBackend } from '../../src/secrets/token/backend.js';
import { createAuthMethods } from '../../src/secrets/auth/backends.js';
import { schedulerRoutes } from '../../src/scheduler/http/routes.js';
import { isOpenRoute, type RouteDef } from '../../src/scheduler/http/route.js';
import { COMMON_QUERY } from '../../src/scheduler/http/pipeline.js';
import { JOB_STUBS, jobStubRecord } from '../../src/scheduler/state/job-stubs.js';
import { JOBS_TABLE } from '../../src/scheduler/state/tables.js';
import type { Job } from '../../src/scheduler/structs/job.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { fakeNode } from '../support/nodes.js';
import { anyJson, deepJsonText, mutated, nastyString, pathSegment, valueFor } from './arbitraries.js';

const RUNS = Number(process.env.FUZZ_RUNS ?? 400);
const seed = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : undefined;
/** A request that takes longer than this is a hang, which is a failure too. */
const REQUEST_TIMEOUT_MS = 10_000;

interface FuzzRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  body?: unknown;
  /** the endpoint needs no token (its declaration says so): without one it may answer anything but a 5xx */
  open?: boolean;
}

let ts: TestServer;
beforeAll(async () => {
  // No member heartbeat during the run: its write would be counted against whichever request it fell in.
  ts = await startTestServer({ client: false, heartbeatTtlMs: 600_000, memberHeartbeatMs: 3_600_000 });
  const enabled = await ts.client().request('POST', '/v1/sys/auth/cloud', { body: { type: 'cloud' } });
  expect(enabled.status).toBe(204);
});
afterAll(async () => {
  await ts?.close();
});

async function send(req: FuzzRequest, token: string): Promise<{ status: number; text: string }> {
  const query = Object.keys(req.query).length ? `?${new URLSearchParams(req.query).toString()}` : '';
  // The path is already encoded segment by segment; the client must not encode it again.
  const answer = await ts.client(token).request(req.method, `${req.path}${query}`, {
    body: req.body,
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
  });
  return { status: answer.status, text: answer.body.toString('utf8').slice(0, 300) };
}

const describeRequest = (r: FuzzRequest) => `${r.method} ${r.path.slice(0, 200)} ${JSON.stringify(r.query).slice(0, 200)} ${JSON.stringify(r.body)?.slice(0, 300)}`;

// ---- the secrets API ------------------------------------------------------------------------------------

const MOUNTS: Array<[string, Backend]> = [
  ['sys', sysBackend],
  ['identity', identityBackend],
  ['auth/token', tokenBackend],
  ['auth/cloud', createAuthMethods().cloud.backend],
];
/** Endpoints left out: revoking the calling root token would end the run; rotate-root calls the real provider. */
const SECRETS_SKIP = new Set(['auth/token/revoke-self', 'auth/cloud/config/rotate-root']);

const METHOD: Record<Operation, string> = { read: 'GET', list: 'LIST', create: 'POST', update: 'PUT', delete: 'DELETE' };

interface SecretsEndpoint {
  mount: string;
  def: PathDef;
  operation: Operation;
}

const secretsEndpoints: SecretsEndpoint[] = MOUNTS.flatMap(([mount, backend]) =>
  backend.paths.flatMap((def) =>
    (Object.keys(def.operations) as Operation[]).map((operation) => ({ mount, def, operation })).filter((e) => !SECRETS_SKIP.has(`${e.mount}/${e.def.pattern}`)),
  ),
);

function secretsRequest(e: SecretsEndpoint): fc.Arbitrary<FuzzRequest> {
  const segments = e.def.pattern === '' ? [] : e.def.pattern.split('/');
  const path = fc.tuple(...segments.map((s) => (s.startsWith(':') || s.startsWith('*') ? pathSegment : fc.constant(s)))).map((parts) => `/v1/${e.mount}/${parts.join('/')}`.replace(/\/$/, ''));
  const params = new Set(segments.filter((s) => s.startsWith(':') || s.startsWith('*')).map((s) => s.slice(1)));
  const bodyFields = Object.entries(e.def.fields).filter(([name]) => !params.has(name));
  const fields = fc.record(Object.fromEntries(bodyFields.map(([name, f]) => [name, valueFor(f)])), { requiredKeys: [] });
  const read = e.operation === 'read' || e.operation === 'list' || e.operation === 'delete';
  return fc.tuple(path, fields, fc.oneof({ weight: 8, arbitrary: fc.constant<unknown>(undefined) }, { weight: 1, arbitrary: anyJson }, { weight: 1, arbitrary: deepJsonText })).map(([p, data, junk]) => ({
    method: METHOD[e.operation],
    path: p,
    // Reads and deletes take their fields from the query string, as Vault's do.
    query: read ? Object.fromEntries(Object.entries(data).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v) ?? ''])) : {},
    body: read ? undefined : (junk ?? data),
    open: e.def.unauthenticated === true,
  }));
}

const anySecretsRequest = fc.constantFrom(...secretsEndpoints).chain(secretsRequest);

describe('fuzzing the secrets API', () => {
  it(`declares the endpoints it fuzzes (${secretsEndpoints.length})`, () => {
    expect(secretsEndpoints.length).toBeGreaterThan(60);
  });

  it('no input gets a 5xx, and a refused request writes nothing', async () => {
    const { store } = ts.server.services;
    await fc.assert(
      fc.asyncProperty(anySecretsRequest, async (req) => {
        const before = store.index();
        const answer = await send(req, ts.rootToken);
        expect(answer.status, `${describeRequest(req)} → ${answer.text}`).toBeLessThan(500);
        if (answer.status >= 400) expect(store.index(), `a refused ${describeRequest(req)} wrote`).toBe(before);
        // A tidy answers 202 and writes afterwards: let it finish before the next request's writes are counted.
        if (answer.status === 202) await Promise.all([tokenTidySettled(store), ts.server.authMethods.cloud.state.tidies.settled()]);
      }),
      { numRuns: RUNS, seed },
    );
  });

  it('without a token, every endpoint but those declared unauthenticated answers 403', async () => {
    await fc.assert(
      fc.asyncProperty(anySecretsRequest, fc.constantFrom('', 'not-a-token'), async (req, token) => {
        const answer = await send(req, token);
        if (req.open) expect(answer.status, `${describeRequest(req)} → ${answer.text}`).toBeLessThan(500);
        else expect(answer.status, `${describeRequest(req)} → ${answer.text}`).toBe(403);
      }),
      { numRuns: RUNS, seed },
    );
  });
});

// ---- the scheduler API ----------------------------------------------------------------------------------

/** Valid bodies to start from, by route path; a fuzzed body is one of these with one part replaced. */
function validBodies(): Record<string, unknown[]> {
  const job = {
    ID: 'fuzz',
    Type: 'service',
    Datacenters: ['dc1'],
    TaskGroups: [{ Name: 'g', Count: 2, Tasks: [{ Name: 't', Driver: 'mock', Config: {}, Resources: { CPU: 10, MemoryMB: 10 }, Env: { A: 'b' } }] }],
    Meta: { k: 'v' },
    Constraints: [{ LTarget: '${attr.kernel.name}', RTarget: 'linux', Operand: '=' }],
  };
  const node = fakeNode();
  return {
    '/v1/jobs': [{ Job: job }, { Job: { ...job, Type: 'batch', ID: 'fuzz-batch' } }],
    '/v1/job/*job_id': [{ Job: job }],
    '/v1/job/*job_id/plan': [{ Job: job, Diff: true }],
    '/v1/job/*job_id/scale': [{ Count: 3, Target: { Group: 'g' }, Message: 'm' }],
    '/v1/job/*job_id/revert': [{ JobID: 'fuzz', JobVersion: 0 }],
    '/v1/job/*job_id/dispatch': [{ Payload: '', Meta: {} }],
    '/v1/job/*job_id/versions/:tag_name/tag': [{ Name: 'v', Description: 'd', Version: 0 }],
    '/v1/jobs/parse': [{ JobHCL: 'job "x" { group "g" { task "t" { driver = "mock" } } }', Canonicalize: true }],
    '/v1/validate/job': [{ Job: job }],
    '/v1/namespace/:name': [{ Name: 'fuzz-ns', Description: 'd', Meta: { a: 'b' } }],
    '/v1/namespace': [{ Name: 'fuzz-ns2' }],
    '/v1/node/register': [{ Node: node.node, SecretID: node.secret }],
    '/v1/node/:node_id/drain': [{ DrainSpec: { Deadline: 1e9, IgnoreSystemJobs: false }, MarkEligible: false, Meta: {} }],
    '/v1/node/:node_id/eligibility': [{ Eligibility: 'ineligible' }],
    '/v1/node/:node_id/client-allocations': [{ Allocs: [{ ID: '00000000-0000-0000-0000-000000000000', ClientStatus: 'running' }] }],
    '/v1/deployment/pause/:deployment_id': [{ Pause: true }],
    '/v1/deployment/promote/:deployment_id': [{ All: true }],
    '/v1/client/allocation/:alloc_id/signal': [{ Signal: 'SIGTERM', Task: 't' }],
    '/v1/client/allocation/:alloc_id/pause': [{ Task: 't', ScheduleState: 'pause' }],
  };
}

/** Streams (they answer until the client goes) and blocking query parameters are left out: a hang is not what is tested here. */
const STREAMING = new Set(['/v1/client/fs/stream/:alloc_id', '/v1/client/fs/logs/:alloc_id', '/v1/agent/monitor', '/v1/event/stream']);
const NOT_FUZZED_QUERY = new Set(['index', 'wait', 'follow']);

interface SchedulerEndpoint {
  route: RouteDef;
  method: string;
}

const schedulerEndpoints: SchedulerEndpoint[] = schedulerRoutes.filter((r) => !STREAMING.has(r.path)).flatMap((route) => route.methods.map((method) => ({ route, method })));

function schedulerRequest(e: SchedulerEndpoint, bodies: Record<string, unknown[]>): fc.Arbitrary<FuzzRequest> {
  const segments = e.route.path.split('/').filter((s) => s !== '');
  const path = fc.tuple(...segments.map((s) => (s.startsWith(':') || s.startsWith('*') ? fc.oneof(pathSegment, fc.constant('fuzz')) : fc.constant(s)))).map((parts) => `/${parts.join('/')}`);
  const schema = Object.entries({ ...COMMON_QUERY, ...e.route.query }).filter(([name]) => !NOT_FUZZED_QUERY.has(name));
  const query = fc.record(
    Object.fromEntries(schema.map(([name, f]) => [name, name === 'namespace' ? fc.oneof(fc.constantFrom('default', '*'), nastyString) : valueFor(f).map((v) => (typeof v === 'string' ? v : JSON.stringify(v) ?? ''))])),
    { requiredKeys: [] },
  ) as fc.Arbitrary<Record<string, string>>;
  const valid = bodies[e.route.path] ?? [];
  const body =
    e.method === 'GET'
      ? fc.constant(undefined)
      : fc.oneof({ weight: 1, arbitrary: anyJson }, { weight: 1, arbitrary: deepJsonText }, ...(valid.length ? [{ weight: 4, arbitrary: fc.constantFrom(...valid).chain(mutated) }] : []));
  return fc.tuple(path, query, body).map(([p, q, b]) => ({ method: e.method, path: p, query: q, body: b }));
}

describe('fuzzing the scheduler API', () => {
  const bodies = validBodies();
  const anySchedulerRequest = fc.constantFrom(...schedulerEndpoints).chain((e) => schedulerRequest(e, bodies));

  it(`declares the endpoints it fuzzes (${schedulerEndpoints.length})`, () => {
    expect(schedulerEndpoints.length).toBeGreaterThan(50);
  });

  it('no input gets a 5xx, and the list stubs still mirror their records after the run', async () => {
    await fc.assert(
      fc.asyncProperty(anySchedulerRequest, async (req) => {
        const answer = await send(req, ts.rootToken);
        expect(answer.status, `${describeRequest(req)} → ${answer.text}`).toBeLessThan(500);
      }),
      { numRuns: RUNS, seed },
    );
    const { store } = ts.server.services;
    const jobs = store.list<Job>(JOBS_TABLE);
    const stubs = store.list(JOB_STUBS);
    expect(stubs.map((e) => e.key)).toEqual(jobs.map((e) => e.key));
    for (const [i, { value }] of jobs.entries()) expect(stubs[i].value).toEqual(JSON.parse(JSON.stringify(jobStubRecord(value))));
  });

  it('without a token, every endpoint but the open ones (status) answers 403', async () => {
    const closed = schedulerEndpoints.filter((e) => !isOpenRoute(e.route));
    const anyClosedRequest = fc.constantFrom(...closed).chain((e) => schedulerRequest(e, bodies));
    await fc.assert(
      fc.asyncProperty(anyClosedRequest, fc.constantFrom('', 'not-a-token'), async (req, token) => {
        const answer = await send(req, token);
        expect(answer.status, `${describeRequest(req)} → ${answer.text}`).toBe(403);
      }),
      { numRuns: RUNS, seed },
    );
  });
});
