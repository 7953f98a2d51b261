/**
 * `svc __complete KIND PREFIX`, the callback of the completion scripts, as the built bin/svc against a
 * real server holding a value of every kind: each kind's values by prefix, from the namespace and the
 * cloud mount the options name; and the bash script completing a command line of every kind with them.
 * Without a server it prints nothing and exits 0.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVER_KINDS, type ServerKind } from '../../src/shared/completion-kinds.js';
import { putAccessListEntry } from '../../src/secrets/auth/cloud/access-list.js';
import { startTestServer, SVC_BIN, type TestServer } from '../support/server.js';
import { fakeNode, registerFakeNode } from '../support/nodes.js';
import { completeInBash } from '../support/shells.js';
import { makeCa } from '../support/tls.js';
import { until } from '../support/wait.js';

let srv: TestServer;

/** What the server holds, by kind, as the setup made it. */
const made = {
  nodeId: '',
  /** by namespace */
  allocs: {} as Record<string, string>,
  evals: {} as Record<string, string>,
  deployments: {} as Record<string, string>,
  entities: {} as Record<string, string>,
  aliasId: '',
  accessors: {} as Record<string, string>,
  tag: '',
};

/** A service job with one service, rolled out under a deployment, placed on the fake node. */
const serviceJob = (id: string, service: string) => ({
  ID: id,
  Datacenters: ['dc1'],
  TaskGroups: [
    {
      Name: 'g',
      Count: 1,
      Update: { MaxParallel: 1 },
      Networks: [{ DynamicPorts: [{ Label: 'http' }] }],
      Services: [{ Name: service, PortLabel: 'http' }],
      Tasks: [{ Name: 't', Driver: 'mock', Config: {}, Resources: { CPU: 100, MemoryMB: 64 } }],
    },
  ],
});

beforeAll(async () => {
  srv = await startTestServer({ client: false, heartbeatTtlMs: 600_000, cloud: { env: {} } });
  const c = srv.client();
  const node = fakeNode();
  await registerFakeNode(c, node);
  made.nodeId = node.node.ID;
  await c.scheduler('PUT', '/v1/namespace/team-a', { body: { Name: 'team-a' } });
  for (const name of ['ci-deploy', 'ci-read']) await c.secrets('PUT', `sys/policies/acl/${name}`, { body: { policy: 'namespace "default" { policy = "read" }' } });

  for (const [id, service, namespace] of [['web', 'web-http', 'default'], ['worker', 'worker-rpc', 'team-a']]) {
    const query = { namespace };
    await c.scheduler('POST', '/v1/jobs', { body: { Job: serviceJob(id, service) }, query });
    await until(async () => (await c.scheduler<unknown[]>('GET', `/v1/job/${id}/services`, { query })).body, (regs) => regs.length > 0, `services of ${id}`);
    const first = async (path: string) => (await until(async () => (await c.scheduler<Array<{ ID: string }>>('GET', path, { query })).body, (l) => l.length > 0, path))[0].ID;
    made.allocs[namespace] = await first('/v1/allocations');
    made.evals[namespace] = await first('/v1/evaluations');
    made.deployments[namespace] = await first('/v1/deployments');
  }

  for (const mount of ['cloud', 'cloud-ci']) await c.secrets('POST', `sys/auth/${mount}`, { body: { type: 'cloud' } });
  for (const mount of ['cloud', 'cloud-ci', 'token']) made.accessors[mount] = srv.server.services.mounts.get(`auth/${mount}/`)!.accessor;
  for (const name of ['build-agent', 'deploy-bot']) made.entities[name] = (await c.secrets('POST', 'identity/entity', { body: { name } }))!.data!.id as string;
  const alias = await c.secrets('POST', 'identity/entity-alias', { body: { name: 'agent-1', canonical_id: made.entities['build-agent'], mount_accessor: made.accessors['cloud-ci'] } });
  made.aliasId = alias!.data!.id as string;

  await c.secrets('POST', 'auth/cloud/role/web', { body: { auth_type: 'ec2', bound_account_id: '123456789012' } });
  await c.secrets('POST', 'auth/cloud-ci/role/ci-runner', { body: { auth_type: 'ec2', bound_ami_id: 'ami-1', role_tag: 'SvcRole' } });
  await c.secrets('POST', 'auth/cloud-ci/config/certificate/ci-cert', { body: { cloud_public_cert: makeCa('ci').cert, type: 'pkcs7' } });
  await c.secrets('POST', 'auth/cloud-ci/config/sts/123456789012', { body: { sts_role: 'arn:aws:iam::123456789012:role/ci' } });
  made.tag = (await c.secrets('POST', 'auth/cloud-ci/role/ci-runner/tag', { body: {} }))!.data!.tag_value as string;
  expect(await srv.cli(['auth', 'cloud', 'denylist', 'add', '-path=cloud-ci', made.tag])).toMatchObject({ code: 0 });
  const now = new Date();
  await putAccessListEntry(srv.server.services, made.accessors['cloud-ci'], 'i-0123456789abcdef0', {
    role: 'ci-runner',
    client_nonce: 'nonce-1',
    creation_time: now.toISOString(),
    disallow_reauthentication: false,
    pending_time: now.toISOString(),
    expiration_time: new Date(now.getTime() + 3_600_000).toISOString(),
    last_updated_time: now.toISOString(),
  });
});
afterAll(async () => srv?.close());

/** The values `svc __complete ARGS` printed, after checking it succeeded and said nothing else. */
async function values(args: string[], env: Record<string, string> = {}): Promise<string[]> {
  const res = await srv.cli(['__complete', ...args], { env });
  expect(res, args.join(' ')).toMatchObject({ code: 0, stderr: '' });
  return res.stdout === '' ? [] : res.stdout.trimEnd().split('\n');
}

const sorted = (list: string[]) => [...list].sort();

describe('svc __complete', () => {
  it('policy: the ACL policies', async () => {
    expect(await values(['policy'])).toEqual(['ci-deploy', 'ci-read', 'default', 'root']);
    expect(await values(['policy', 'ci-d'])).toEqual(['ci-deploy']);
  });

  it('namespace: the namespaces', async () => {
    expect(await values(['namespace'])).toEqual(['default', 'team-a']);
    expect(await values(['namespace', 't'])).toEqual(['team-a']);
  });

  it('job: the jobs of the namespace -namespace or SVC_NAMESPACE names, of every namespace with *', async () => {
    expect(await values(['job'])).toEqual(['web']);
    expect(await values(['-namespace=team-a', 'job'])).toEqual(['worker']);
    expect(await values(['job'], { SVC_NAMESPACE: 'team-a' })).toEqual(['worker']);
    expect(await values(['-namespace=*', 'job', 'w'])).toEqual(['web', 'worker']);
    expect(await values(['-namespace=*', 'job', 'wo'])).toEqual(['worker']);
  });

  // Allocations, evaluations and deployments: the server takes only an even number of hex digits as
  // a prefix, so an odd one (three digits here) must still narrow the list.
  it.each([
    ['alloc', made.allocs],
    ['eval', made.evals],
    ['deployment', made.deployments],
  ] as const)('%s: the IDs of the namespace, by a prefix of any length', async (kind, ids) => {
    expect(await values([kind])).toEqual([ids.default]);
    expect(await values(['-namespace=team-a', kind])).toEqual([ids['team-a']]);
    expect(await values(['-namespace=*', kind])).toEqual(sorted([ids.default, ids['team-a']]));
    const odd = await values(['-namespace=*', kind, ids.default.slice(0, 3)]);
    expect(odd).toContain(ids.default);
    for (const id of odd) expect(id.startsWith(ids.default.slice(0, 3))).toBe(true);
    expect(await values([kind, ids.default.slice(0, 13)])).toEqual([ids.default]);
    expect(await values([kind, 'not-hex'])).toEqual([]);
  });

  it('node: the nodes', async () => {
    expect(await values(['node'])).toEqual([made.nodeId]);
    expect(await values(['node', made.nodeId.slice(0, 3)])).toEqual([made.nodeId]);
  });

  it('service: the service names of the namespace', async () => {
    expect(await values(['service'])).toEqual(['web-http']);
    expect(await values(['-namespace=team-a', 'service', 'wo'])).toEqual(['worker-rpc']);
    expect(await values(['-namespace=*', 'service', 'w'])).toEqual(['web-http', 'worker-rpc']);
    expect(await values(['service', 'x'])).toEqual([]);
  });

  it('mount, cloud-mount, accessor: the auth mounts, the cloud ones, their accessors', async () => {
    expect(await values(['mount'])).toEqual(['cloud', 'cloud-ci', 'token']);
    expect(await values(['mount', 'cloud-'])).toEqual(['cloud-ci']);
    expect(await values(['cloud-mount'])).toEqual(['cloud', 'cloud-ci']);
    expect(await values(['accessor'])).toEqual(sorted(Object.values(made.accessors)));
    expect(await values(['accessor', 'auth_token'])).toEqual([made.accessors.token]);
  });

  it('entity, entity-name, entity-alias: the identity store', async () => {
    expect(await values(['entity'])).toEqual(sorted(Object.values(made.entities)));
    expect(await values(['entity', made.entities['deploy-bot'].slice(0, 8)])).toEqual([made.entities['deploy-bot']]);
    expect(await values(['entity-name'])).toEqual(['build-agent', 'deploy-bot']);
    expect(await values(['entity-name', 'd'])).toEqual(['deploy-bot']);
    expect(await values(['entity-alias'])).toEqual([made.aliasId]);
  });

  it('role, certificate, sts-account, denylist, accesslist: the lists of the cloud mount -path names', async () => {
    expect(await values(['role'])).toEqual(['web']);
    expect(await values(['-path=cloud-ci', 'role'])).toEqual(['ci-runner']);
    expect(await values(['-path=/auth/cloud-ci/', 'role', 'ci'])).toEqual(['ci-runner']);
    expect(await values(['-path=cloud-ci', 'certificate'])).toEqual(['ci-cert']);
    expect(await values(['-path=cloud-ci', 'sts-account', '1'])).toEqual(['123456789012']);
    expect(await values(['-path=cloud-ci', 'denylist', 'v1:'])).toEqual([made.tag]);
    expect(await values(['-path=cloud-ci', 'accesslist'])).toEqual(['i-0123456789abcdef0']);
    for (const kind of ['certificate', 'sts-account', 'denylist', 'accesslist']) expect(await values([kind]), `${kind} of auth/cloud`).toEqual([]);
  });

  it('prints nothing and exits 0 for every kind when no server answers, and for an unknown kind', async () => {
    const kinds = [...Object.keys(SERVER_KINDS), 'no-such-kind'];
    const results = await Promise.all(kinds.map((kind) => srv.cli(['__complete', kind, ''], { env: { SVC_ADDR: 'http://127.0.0.1:1' } })));
    // The top of the secrets paths is known without a server.
    results.forEach((res, i) => expect(res, kinds[i]).toEqual({ code: 0, stdout: kinds[i] === 'secrets-path' ? 'auth/\nidentity/\nsys/\n' : '', stderr: '' }));
  });
});

describe('the bash script with values of every kind', () => {
  it('completes an argument or flag of each kind from the server', async () => {
    const cases: Array<[ServerKind, string, string[]]> = [
      ['policy', 'policy read ci-', ['ci-deploy', 'ci-read']],
      ['secrets-path', 'read auth/cloud-c', ['auth/cloud-ci/']],
      ['policy', 'token create -policy=ci-d', ['ci-deploy']],
      ['policy', 'identity entity create -policies ci-r', ['ci-read']],
      ['policy', 'auth cloud role write -token-policies=ci-d', ['ci-deploy']],
      ['namespace', 'namespace status te', ['team-a']],
      ['job', 'job status -namespace=team-a ', ['worker']],
      ['alloc', `alloc status ${made.allocs.default.slice(0, 13)}`, [made.allocs.default]],
      ['eval', `eval status ${made.evals.default.slice(0, 13)}`, [made.evals.default]],
      ['deployment', `deployment status ${made.deployments.default.slice(0, 13)}`, [made.deployments.default]],
      ['node', `node status ${made.nodeId.slice(0, 13)}`, [made.nodeId]],
      ['service', 'service info -namespace team-a ', ['worker-rpc']],
      ['mount', 'auth tune cl', ['cloud', 'cloud-ci']],
      ['mount', 'login -path=t', ['token']],
      ['cloud-mount', 'auth cloud role list -path=', ['cloud', 'cloud-ci']],
      ['accessor', 'identity entity-alias create -mount-accessor=auth_tok', [made.accessors.token]],
      ['entity', `identity entity read ${made.entities['build-agent'].slice(0, 13)}`, [made.entities['build-agent']]],
      ['entity', 'token create -entity-id=', sorted(Object.values(made.entities))],
      ['entity-name', 'identity entity read -name=bu', ['build-agent']],
      ['entity-alias', 'identity entity-alias read ', [made.aliasId]],
      ['role', 'login -method=cloud role=', ['web']],
      ['role', 'auth cloud role read -path=cloud-ci ', ['ci-runner']],
      ['certificate', 'auth cloud config certificate read -path=cloud-ci ', ['ci-cert']],
      ['sts-account', 'auth cloud config sts delete -path=cloud-ci 1', ['123456789012']],
      // readline replaces only what follows the last ":" of the word
      ['denylist', 'auth cloud denylist read -path=cloud-ci v1:', [made.tag.slice('v1:'.length)]],
      ['accesslist', 'auth cloud accesslist delete -path cloud-ci i-', ['i-0123456789abcdef0']],
    ];
    expect(new Set(cases.map(([kind]) => kind))).toEqual(new Set(Object.keys(SERVER_KINDS)));
    const answers = await completeInBash(
      cases.map(([, line]) => `${SVC_BIN} ${line}`),
      { env: { SVC_ADDR: srv.url, SVC_TOKEN: srv.rootToken, NO_COLOR: '1' } },
    );
    cases.forEach(([, line, expected], i) => expect(sorted(answers[i]), line).toEqual(sorted(expected)));
  });
});
