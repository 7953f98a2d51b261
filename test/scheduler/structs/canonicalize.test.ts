import { describe, expect, it } from 'vitest';
import { canonicalizeJob } from '../../../src/scheduler/structs/index.js';

const SEC = 1_000_000_000;
const MIN = 60 * SEC;
const HOUR = 60 * MIN;

function minimal(type?: string): Record<string, unknown> {
  return {
    ID: 'web',
    ...(type ? { Type: type } : {}),
    TaskGroups: [{ Name: 'g', Tasks: [{ Name: 't', Driver: 'raw_exec', Config: { command: '/bin/sleep', args: ['60'] } }] }],
  };
}

describe('canonicalizeJob: defaults of a minimal service job', () => {
  const job = canonicalizeJob(minimal());
  const group = job.TaskGroups[0];
  const task = group.Tasks[0];

  it('fills job-level defaults', () => {
    expect(job.Region).toBe('global');
    expect(job.Namespace).toBe('default');
    expect(job.ID).toBe('web');
    expect(job.Name).toBe('web');
    expect(job.Type).toBe('service');
    expect(job.Priority).toBe(50);
    expect(job.AllAtOnce).toBe(false);
    expect(job.Datacenters).toEqual(['*']);
    expect(job.NodePool).toBe('default');
    expect(job.Status).toBe('');
    expect(job.Stop).toBe(false);
    expect(job.Stable).toBe(false);
    expect(job.Version).toBe(0);
    expect(job.Dispatched).toBe(false);
    expect(job.ParentID).toBe('');
  });

  it('keeps unset lists, maps and blocks null as Nomad emits them', () => {
    for (const field of ['Constraints', 'Affinities', 'Spreads', 'Meta', 'Periodic', 'ParameterizedJob', 'Multiregion', 'Payload', 'UI', 'VersionTag'] as const) {
      expect(job[field], field).toBeNull();
    }
    for (const field of ['Constraints', 'Affinities', 'Spreads', 'Meta', 'Networks', 'Services', 'Volumes', 'Scaling', 'Disconnect', 'ShutdownDelay', 'MaxRunDuration', 'Consul'] as const) {
      expect(group[field], field).toBeNull();
    }
    for (const field of ['Env', 'Services', 'Templates', 'Artifacts', 'Constraints', 'Affinities', 'Meta', 'Lifecycle', 'Vault', 'DispatchPayload', 'VolumeMounts', 'Identities', 'Actions', 'Secrets'] as const) {
      expect(task[field], field).toBeNull();
    }
    expect(task.Resources.Networks).toBeNull();
    expect(task.Resources.Devices).toBeNull();
  });

  it('keeps only Stagger and MaxParallel in the job-level update of a service job', () => {
    expect(job.Update).toEqual({
      Stagger: 30 * SEC,
      MaxParallel: 1,
      HealthCheck: '',
      MinHealthyTime: 0,
      HealthyDeadline: 0,
      ProgressDeadline: 0,
      AutoRevert: false,
      AutoPromote: false,
      Canary: 0,
    });
  });

  it('gives the group the full update strategy', () => {
    expect(group.Update).toEqual({
      Stagger: 30 * SEC,
      MaxParallel: 1,
      HealthCheck: 'checks',
      MinHealthyTime: 10 * SEC,
      HealthyDeadline: 5 * MIN,
      ProgressDeadline: 10 * MIN,
      AutoRevert: false,
      AutoPromote: false,
      Canary: 0,
    });
  });

  it('fills group count, restart, reschedule, migrate and ephemeral disk', () => {
    expect(group.Count).toBe(1);
    expect(group.RestartPolicy).toEqual({ Attempts: 2, Interval: 30 * MIN, Delay: 15 * SEC, Mode: 'fail', RenderTemplates: false });
    expect(group.ReschedulePolicy).toEqual({
      Attempts: 0,
      Interval: 0,
      Delay: 30 * SEC,
      DelayFunction: 'exponential',
      MaxDelay: HOUR,
      Unlimited: true,
    });
    expect(group.Migrate).toEqual({ MaxParallel: 1, HealthCheck: 'checks', MinHealthyTime: 10 * SEC, HealthyDeadline: 5 * MIN });
    expect(group.EphemeralDisk).toEqual({ Sticky: false, SizeMB: 300, Migrate: false });
    expect(group.PreventRescheduleOnLost).toBe(false);
  });

  it('fills task defaults', () => {
    expect(task.Resources).toEqual({
      CPU: 100,
      Cores: 0,
      MemoryMB: 300,
      MemoryMaxMB: 0,
      DiskMB: 0,
      IOPS: 0,
      Networks: null,
      Devices: null,
      NUMA: null,
      SecretsMB: 0,
    });
    expect(task.LogConfig).toEqual({ MaxFiles: 10, MaxFileSizeMB: 10, Disabled: false });
    expect(task.KillTimeout).toBe(5 * SEC);
    expect(task.ShutdownDelay).toBe(0);
    expect(task.KillSignal).toBe('');
    expect(task.Leader).toBe(false);
    expect(task.User).toBe('');
    expect(task.RestartPolicy).toEqual(group.RestartPolicy);
    expect(task.Config).toEqual({ command: '/bin/sleep', args: ['60'] });
    expect(task.Identity?.Name).toBe('default');
  });

  it('round-trips through JSON unchanged (no undefined fields)', () => {
    expect(JSON.parse(JSON.stringify(job))).toEqual(job);
  });
});

describe('canonicalizeJob: defaults by job type', () => {
  it('batch: restart 3 in 24h, reschedule once, no group update or migrate, zero job update', () => {
    const job = canonicalizeJob(minimal('batch'));
    const g = job.TaskGroups[0];
    expect(g.RestartPolicy).toEqual({ Attempts: 3, Interval: 24 * HOUR, Delay: 15 * SEC, Mode: 'fail', RenderTemplates: false });
    expect(g.ReschedulePolicy).toEqual({
      Attempts: 1,
      Interval: 24 * HOUR,
      Delay: 5 * SEC,
      DelayFunction: 'constant',
      MaxDelay: 0,
      Unlimited: false,
    });
    expect(g.Update).toBeNull();
    expect(g.Migrate).toBeNull();
    expect(job.Update.Stagger).toBe(0);
    expect(job.Update.MaxParallel).toBe(0);
  });

  it('system: service restart defaults, no reschedule, update but no migrate', () => {
    const job = canonicalizeJob(minimal('system'));
    const g = job.TaskGroups[0];
    expect(g.RestartPolicy.Attempts).toBe(2);
    expect(g.RestartPolicy.Interval).toBe(30 * MIN);
    expect(g.ReschedulePolicy).toBeNull();
    expect(g.Migrate).toBeNull();
    expect(g.Update?.HealthCheck).toBe('checks');
    expect(job.Update.Stagger).toBe(30 * SEC);
  });

  it('sysbatch: batch restart defaults, no reschedule, no update', () => {
    const job = canonicalizeJob(minimal('sysbatch'));
    const g = job.TaskGroups[0];
    expect(g.RestartPolicy.Attempts).toBe(3);
    expect(g.RestartPolicy.Interval).toBe(24 * HOUR);
    expect(g.ReschedulePolicy).toBeNull();
    expect(g.Update).toBeNull();
  });
});

describe('canonicalizeJob: merging user blocks', () => {
  it('merges restart field by field: job type default < group < task', () => {
    const input = minimal();
    const g = (input.TaskGroups as Record<string, unknown>[])[0];
    g.RestartPolicy = { Attempts: 5 };
    (g.Tasks as Record<string, unknown>[])[0].RestartPolicy = { Mode: 'delay' };
    const job = canonicalizeJob(input);
    expect(job.TaskGroups[0].RestartPolicy).toEqual({ Attempts: 5, Interval: 30 * MIN, Delay: 15 * SEC, Mode: 'fail', RenderTemplates: false });
    expect(job.TaskGroups[0].Tasks[0].RestartPolicy).toEqual({ Attempts: 5, Interval: 30 * MIN, Delay: 15 * SEC, Mode: 'delay', RenderTemplates: false });
  });

  it('merges the job-level update, reschedule and migrate under the group-level ones', () => {
    const input = minimal();
    input.Update = { MaxParallel: 3, Canary: 1, AutoRevert: true };
    input.Reschedule = { Delay: 10 * SEC };
    input.Migrate = { MaxParallel: 2 };
    const g = (input.TaskGroups as Record<string, unknown>[])[0];
    g.Update = { Canary: 2 };
    g.ReschedulePolicy = { MaxDelay: 2 * HOUR };
    const job = canonicalizeJob(input);
    const group = job.TaskGroups[0];
    expect(job.Update.MaxParallel).toBe(3);
    expect(job.Update.Canary).toBe(0);
    expect(job.Update.AutoRevert).toBe(false);
    expect(group.Update).toMatchObject({ MaxParallel: 3, Canary: 2, AutoRevert: true, HealthCheck: 'checks', Stagger: 30 * SEC });
    expect(group.ReschedulePolicy).toMatchObject({ Delay: 10 * SEC, MaxDelay: 2 * HOUR, DelayFunction: 'exponential', Unlimited: true });
    expect(group.Migrate).toMatchObject({ MaxParallel: 2, HealthCheck: 'checks' });
    expect('Reschedule' in job).toBe(false);
    expect('Migrate' in job).toBe(false);
  });

  it('takes the count from scaling.min when count is unset', () => {
    const input = minimal();
    (input.TaskGroups as Record<string, unknown>[])[0].Scaling = { Min: 3, Max: 10 };
    const g = canonicalizeJob(input).TaskGroups[0];
    expect(g.Count).toBe(3);
    expect(g.Scaling).toMatchObject({ Min: 3, Max: 10, Enabled: true, Type: 'horizontal' });
    expect(g.Scaling?.Target).toEqual({ Namespace: 'default', Job: 'web', Group: 'g' });
  });

  it('sets CPU to 0 when only cores are asked for', () => {
    const input = minimal();
    ((input.TaskGroups as Record<string, unknown>[])[0].Tasks as Record<string, unknown>[])[0].Resources = { Cores: 2 };
    const r = canonicalizeJob(input).TaskGroups[0].Tasks[0].Resources;
    expect(r.CPU).toBe(0);
    expect(r.Cores).toBe(2);
    expect(r.MemoryMB).toBe(300);
  });

  it('fills service, check, port, artifact, template and affinity defaults', () => {
    const job = canonicalizeJob({
      ID: 'api',
      TaskGroups: [
        {
          Name: 'web',
          Networks: [{ DynamicPorts: [{ Label: 'http' }], ReservedPorts: [{ Label: 'admin', Value: 8080 }] }],
          Services: [{ PortLabel: 'http', Checks: [{ Type: 'http', Path: '/', Interval: 10 * SEC, Timeout: 2 * SEC }] }],
          Affinities: [{ LTarget: '${node.class}', RTarget: 'big', Operand: '=' }],
          Tasks: [
            {
              Name: 'srv',
              Driver: 'raw_exec',
              Services: [{ PortLabel: 'http' }],
              Artifacts: [{ GetterSource: 'https://example.com/bin/tool.tgz', GetterMode: 'file' }, { GetterSource: 'https://example.com/a' }],
              Templates: [{ EmbeddedTmpl: 'x', DestPath: 'local/x', ChangeMode: 'signal', ChangeSignal: 'sigusr1' }, { EmbeddedTmpl: 'y', DestPath: 'local/y' }],
              Lifecycle: { Sidecar: true },
            },
          ],
        },
      ],
    });
    const g = job.TaskGroups[0];
    expect(g.Networks?.[0].Mode).toBe('host');
    expect(g.Networks?.[0].DynamicPorts?.[0]).toEqual({ Label: 'http', Value: 0, To: 0, HostNetwork: 'default', IgnoreCollision: false });
    expect(g.Networks?.[0].ReservedPorts?.[0].Value).toBe(8080);
    const svc = g.Services![0];
    expect(svc).toMatchObject({ Name: 'api-web', TaskName: '', AddressMode: 'auto', OnUpdate: 'require_healthy', Provider: 'consul', Cluster: 'default' });
    expect(svc.Checks?.[0]).toMatchObject({ Name: 'service: "api-web" check', OnUpdate: 'require_healthy', Interval: 10 * SEC });
    expect(g.Affinities?.[0].Weight).toBe(50);
    expect(svc.Namespace).toBe('default');
    const t = g.Tasks[0];
    expect(t.Services?.[0]).toMatchObject({ Name: 'api-web-srv', TaskName: 'srv' });
    expect(t.Artifacts?.[0]).toMatchObject({ GetterMode: 'file', RelativeDest: 'local/tool.tgz', GetterInsecure: false, Chown: false });
    expect(t.Artifacts?.[1]).toMatchObject({ GetterMode: 'any', RelativeDest: 'local/' });
    expect(t.Templates?.[0]).toMatchObject({ ChangeMode: 'signal', ChangeSignal: 'SIGUSR1', Splay: 5 * SEC, Perms: '0644', LeftDelim: '{{', RightDelim: '}}' });
    expect(t.Templates?.[1]).toMatchObject({ ChangeMode: 'restart', ChangeSignal: '' });
    expect(t.Lifecycle).toBeNull();
  });

  it('fills periodic and parameterized defaults', () => {
    const job = canonicalizeJob({ ...minimal('batch'), Periodic: { Specs: ['@daily'] }, ParameterizedJob: {} });
    expect(job.Periodic).toEqual({ Enabled: true, Spec: '', Specs: ['@daily'], SpecType: 'cron', ProhibitOverlap: false, TimeZone: 'UTC' });
    expect(job.ParameterizedJob).toEqual({ Payload: 'optional', MetaRequired: null, MetaOptional: null });
  });
});

describe('canonicalizeJob: input leniency', () => {
  it('matches field names case-insensitively, as Go decodes JSON', () => {
    const job = canonicalizeJob({ id: 'x', type: 'batch', taskgroups: [{ name: 'g', count: 4, tasks: [{ name: 't', driver: 'exec' }] }] });
    expect(job.ID).toBe('x');
    expect(job.Type).toBe('batch');
    expect(job.TaskGroups[0].Count).toBe(4);
    expect(job.TaskGroups[0].Tasks[0].Driver).toBe('exec');
  });

  it('finds a differently spelled key when the exact one is present but undefined', () => {
    const job = canonicalizeJob({ id: 'lower', ID: undefined, TaskGroups: [] });
    expect(job.ID).toBe('lower');
  });

  it('treats explicit null as unset', () => {
    const job = canonicalizeJob({ ...minimal(), Priority: null, Datacenters: null, Region: null });
    expect(job.Priority).toBe(50);
    expect(job.Datacenters).toEqual(['*']);
    expect(job.Region).toBe('global');
  });

  it('accepts Go duration strings as well as nanoseconds', () => {
    const input = minimal();
    const t = ((input.TaskGroups as Record<string, unknown>[])[0].Tasks as Record<string, unknown>[])[0];
    t.KillTimeout = '1m30s';
    t.ShutdownDelay = 2 * SEC;
    const task = canonicalizeJob(input).TaskGroups[0].Tasks[0];
    expect(task.KillTimeout).toBe(90 * SEC);
    expect(task.ShutdownDelay).toBe(2 * SEC);
  });

  it('drops removed fields that old job files still carry', () => {
    const job = canonicalizeJob({ ...minimal(), VaultToken: 'x', ConsulToken: 'y' }) as unknown as Record<string, unknown>;
    expect('VaultToken' in job).toBe(false);
    expect('ConsulToken' in job).toBe(false);
  });

  it('never mutates its input and is deterministic', () => {
    const input = minimal();
    input.Update = { MaxParallel: 2 };
    const before = JSON.stringify(input);
    const a = canonicalizeJob(input);
    const b = canonicalizeJob(input);
    expect(JSON.stringify(input)).toBe(before);
    expect(a).toEqual(b);
    a.TaskGroups[0].Tasks[0].Config!.command = 'changed';
    expect(((input.TaskGroups as Record<string, unknown>[])[0].Tasks as { Config: { command: string } }[])[0].Config.command).toBe('/bin/sleep');
  });
});

describe('canonicalizeJob: a full job keeps user values', () => {
  it('keeps every value the user set', () => {
    const input = {
      Region: 'eu',
      Namespace: 'prod',
      ID: 'full',
      Name: 'Full Job',
      Type: 'batch',
      Priority: 70,
      AllAtOnce: true,
      Datacenters: ['dc1', 'dc2'],
      NodePool: 'gpu',
      Meta: { owner: 'team' },
      Constraints: [{ LTarget: '${attr.kernel.name}', RTarget: 'linux', Operand: '=' }],
      Spreads: [{ Attribute: '${node.datacenter}', Weight: 80, SpreadTarget: [{ Value: 'dc1', Percent: 60 }] }],
      Update: { Stagger: 10 * SEC, MaxParallel: 4 },
      TaskGroups: [
        {
          Name: 'work',
          Count: 7,
          RestartPolicy: { Attempts: 1, Interval: HOUR, Delay: 20 * SEC, Mode: 'delay', RenderTemplates: true },
          ReschedulePolicy: { Attempts: 4, Interval: 2 * HOUR, Delay: 6 * SEC, DelayFunction: 'fibonacci', MaxDelay: 20 * MIN, Unlimited: false },
          EphemeralDisk: { Sticky: true, SizeMB: 1000, Migrate: true },
          Meta: { g: '1' },
          ShutdownDelay: 3 * SEC,
          MaxRunDuration: HOUR,
          Tasks: [
            {
              Name: 'run',
              Driver: 'exec',
              User: 'nobody',
              Env: { A: 'b' },
              Resources: { CPU: 500, MemoryMB: 1024, MemoryMaxMB: 2048 },
              LogConfig: { MaxFiles: 3, MaxFileSizeMB: 5, Disabled: true },
              KillTimeout: 20 * SEC,
              KillSignal: 'SIGTERM',
              Leader: true,
              Lifecycle: { Hook: 'prestart', Sidecar: true },
              Meta: { t: '2' },
            },
          ],
        },
      ],
    };
    const job = canonicalizeJob(input);
    expect(job).toMatchObject({
      Region: 'eu',
      Namespace: 'prod',
      ID: 'full',
      Name: 'Full Job',
      Type: 'batch',
      Priority: 70,
      AllAtOnce: true,
      Datacenters: ['dc1', 'dc2'],
      NodePool: 'gpu',
      Meta: { owner: 'team' },
      Constraints: input.Constraints,
      Spreads: input.Spreads,
    });
    expect(job.Update.Stagger).toBe(10 * SEC);
    expect(job.Update.MaxParallel).toBe(4);
    const g = job.TaskGroups[0];
    expect(g).toMatchObject({
      Count: 7,
      RestartPolicy: input.TaskGroups[0].RestartPolicy,
      ReschedulePolicy: input.TaskGroups[0].ReschedulePolicy,
      EphemeralDisk: input.TaskGroups[0].EphemeralDisk,
      Meta: { g: '1' },
      ShutdownDelay: 3 * SEC,
      MaxRunDuration: HOUR,
    });
    expect(g.Tasks[0]).toMatchObject({
      User: 'nobody',
      Env: { A: 'b' },
      Resources: { CPU: 500, MemoryMB: 1024, MemoryMaxMB: 2048 },
      LogConfig: { MaxFiles: 3, MaxFileSizeMB: 5, Disabled: true },
      KillTimeout: 20 * SEC,
      KillSignal: 'SIGTERM',
      Leader: true,
      Lifecycle: { Hook: 'prestart', Sidecar: true },
      Meta: { t: '2' },
      RestartPolicy: input.TaskGroups[0].RestartPolicy,
    });
  });

  it('is idempotent: canonicalizing a canonical job changes nothing', () => {
    const once = canonicalizeJob({ ...minimal(), Periodic: undefined });
    expect(canonicalizeJob(once)).toEqual(once);
    const batch = canonicalizeJob({ ...minimal('batch'), Periodic: { Spec: '@hourly' } });
    expect(canonicalizeJob(batch)).toEqual(batch);
  });
});

describe('canonicalizeJob: service names and namespaces', () => {
  it('substitutes ${JOB}, ${TASKGROUP}, ${TASK} and ${BASE} in service names', () => {
    const job = canonicalizeJob({
      ID: 'shop',
      Namespace: 'prod',
      TaskGroups: [
        {
          Name: 'web',
          Services: [{ Name: '${JOB}-${TASKGROUP}-lb', Provider: 'nomad' }],
          Tasks: [{ Name: 'srv', Driver: 'raw_exec', Services: [{ Name: '${BASE}' }, { Name: '${TASK}-metrics' }] }],
        },
      ],
    });
    const g = job.TaskGroups[0];
    expect(g.Services?.[0].Name).toBe('shop-web-lb');
    expect(g.Services?.[0].Namespace).toBe('prod');
    expect(g.Tasks[0].Services?.map((s) => s.Name)).toEqual(['shop-web-srv', 'srv-metrics']);
    expect(g.Tasks[0].Services?.[0].Namespace).toBe('default');
  });
});
