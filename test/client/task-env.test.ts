import { describe, expect, it } from 'vitest';
import { buildTaskEnv, interpolate, interpolateConfig } from '../../src/client/task-env.js';
import { makeAlloc, testNode } from './helpers.js';

const paths = { allocDir: '/a/alloc', taskDir: '/a/web/local', secretsDir: '/a/web/secrets' };

async function envFor() {
  const alloc = makeAlloc({
    tasks: [{ Name: 'web', Driver: 'raw_exec', Config: { command: 'x' }, Meta: { owner: 'task', Zone: 'z1' }, Env: { MY_PORT: '${NOMAD_PORT_http}', KERNEL: '${attr.kernel.name}', KEEP: '${nope.x}' } }],
    group: { Meta: { owner: 'group', tier: 'web' } },
    job: { Meta: { owner: 'job', team: 'core' }, Region: 'eu' },
    ports: [
      { Label: 'http', Value: 23456, To: 8080, HostIP: '10.0.0.5' },
      { Label: 'db', Value: 25000, To: 0, HostIP: '10.0.0.5' },
    ],
  });
  const node = await testNode();
  const task = alloc.Job.TaskGroups[0].Tasks[0];
  return { env: buildTaskEnv({ alloc, task, node, paths, hostEnv: { HOME_FROM_HOST: 'yes', NOMAD_TASK_NAME: 'host-loses' } }), alloc, node };
}

describe('buildTaskEnv', () => {
  it('sets the allocation, job and node variables under Nomad names', async () => {
    const { env, alloc, node } = await envFor();
    expect(env).toMatchObject({
      NOMAD_ALLOC_ID: alloc.ID,
      NOMAD_SHORT_ALLOC_ID: alloc.ID.slice(0, 8),
      NOMAD_ALLOC_NAME: alloc.Name,
      NOMAD_ALLOC_INDEX: '2',
      NOMAD_ALLOC_DIR: '/a/alloc',
      NOMAD_TASK_DIR: '/a/web/local',
      NOMAD_SECRETS_DIR: '/a/web/secrets',
      NOMAD_TASK_NAME: 'web',
      NOMAD_GROUP_NAME: 'g',
      NOMAD_JOB_ID: alloc.JobID,
      NOMAD_JOB_NAME: alloc.Job.Name,
      NOMAD_JOB_PARENT_ID: '',
      NOMAD_NAMESPACE: 'default',
      NOMAD_REGION: 'eu',
      NOMAD_DC: node.Datacenter,
      NOMAD_CPU_LIMIT: '100',
      NOMAD_MEMORY_LIMIT: '300',
    });
    expect(env.NOMAD_MEMORY_MAX_LIMIT).toBeUndefined();
  });

  it('sets port variables from the allocated ports', async () => {
    const { env } = await envFor();
    expect(env).toMatchObject({
      NOMAD_PORT_http: '8080',
      NOMAD_ALLOC_PORT_http: '8080',
      NOMAD_IP_http: '10.0.0.5',
      NOMAD_ADDR_http: '10.0.0.5:8080',
      NOMAD_HOST_PORT_http: '23456',
      NOMAD_HOST_IP_http: '10.0.0.5',
      NOMAD_HOST_ADDR_http: '10.0.0.5:23456',
      NOMAD_PORT_db: '25000',
      NOMAD_ADDR_db: '10.0.0.5:25000',
    });
  });

  it('merges job, group and task meta (task wins), with upper-cased twins', async () => {
    const { env } = await envFor();
    expect(env).toMatchObject({ NOMAD_META_owner: 'task', NOMAD_META_OWNER: 'task', NOMAD_META_tier: 'web', NOMAD_META_team: 'core', NOMAD_META_Zone: 'z1', NOMAD_META_ZONE: 'z1' });
  });

  it('gives every NOMAD_ variable an SVC_ twin', async () => {
    const { env } = await envFor();
    expect(env.SVC_ALLOC_ID).toBe(env.NOMAD_ALLOC_ID);
    expect(env.SVC_PORT_http).toBe('8080');
    expect(env.SVC_META_owner).toBe('task');
  });

  it('interpolates the env block and lets client variables override the host environment', async () => {
    const { env } = await envFor();
    expect(env.MY_PORT).toBe('8080');
    expect(env.KERNEL).toBe('linux');
    expect(env.KEEP).toBe('${nope.x}');
    expect(env.HOME_FROM_HOST).toBe('yes');
    expect(env.NOMAD_TASK_NAME).toBe('web');
  });
});

describe('interpolate', () => {
  it('resolves env, node attributes, node fields and node meta; leaves unknowns', async () => {
    const node = await testNode();
    const env = { NOMAD_META_x: 'mx' };
    expect(interpolate('${NOMAD_META_x}/${attr.kernel.name}/${node.unique.id}/${node.datacenter}/${node.class}/${node.unique.name}/${meta.rack}/${attr.nope}/${what}', env, node)).toBe(
      `mx/linux/${node.ID}/dc1/test/${node.Name}/r1/\${attr.nope}/\${what}`,
    );
  });

  it('applies to every string of a config block, however deep', async () => {
    const node = await testNode();
    const out = interpolateConfig({ command: '${A}', args: ['-p', '${A}', 3], nested: { list: [{ k: 'x${A}' }] }, flag: true }, { A: 'a' }, node);
    expect(out).toEqual({ command: 'a', args: ['-p', 'a', 3], nested: { list: [{ k: 'xa' }] }, flag: true });
  });
});
