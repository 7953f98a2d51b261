import { describe, expect, it } from 'vitest';
import { canonicalizeJob, formatValidationErrors, jobWarnings, validateJob, type Job } from '../../../src/scheduler/structs/index.js';

const SEC = 1_000_000_000;

type RawTask = Record<string, unknown>;
type RawGroup = { [field: string]: unknown; Tasks: RawTask[] };
type RawJob = { [field: string]: unknown; TaskGroups: RawGroup[] };
type Patch = (raw: RawJob) => void;

/** A valid job, changed by `patch` in its input shape before canonicalization. */
function job(patch?: Patch, type = 'service'): Job {
  const raw: RawJob = {
    ID: 'web',
    Type: type,
    TaskGroups: [{ Name: 'g', Tasks: [{ Name: 't', Driver: 'raw_exec', Config: { command: '/bin/true' } }] }],
  };
  patch?.(raw);
  return canonicalizeJob(raw);
}

function errorsOf(patch: Patch, type?: string): string[] {
  return validateJob(job(patch, type));
}

describe('validateJob', () => {
  it('accepts a minimal job of every type', () => {
    for (const type of ['service', 'batch', 'system', 'sysbatch']) {
      expect(validateJob(job(undefined, type)), type).toEqual([]);
    }
  });

  it('reports several errors at once', () => {
    const errs = errorsOf((j) => {
      j.ID = 'has space';
      j.Priority = 500;
      j.TaskGroups[0].Count = -1;
      j.TaskGroups[0].Tasks[0].Driver = '';
      j.TaskGroups[0].RestartPolicy = { Mode: 'sometimes' };
    });
    expect(errs).toContain('Job ID contains a space');
    expect(errs).toContain('Job priority must be between [1, 100]');
    expect(errs).toContain("Task group g validation failed: Task group count can't be negative");
    expect(errs).toContain('Task group g validation failed: Task t validation failed: Missing task driver');
    expect(errs).toContain('Task group g validation failed: Unsupported restart mode: "sometimes"');
    expect(errs.length).toBeGreaterThanOrEqual(5);
  });

  it('formats the list as Nomad prints a multi-error', () => {
    expect(formatValidationErrors(['a', 'b'])).toBe('2 errors occurred:\n\t* a\n\t* b\n\n');
    expect(formatValidationErrors(['a'])).toBe('1 error occurred:\n\t* a\n\n');
  });

  it('requires an ID without spaces or NUL', () => {
    expect(errorsOf((j) => delete j.ID)).toContain('Missing job ID');
    expect(errorsOf((j) => (j.ID = 'a b'))).toContain('Job ID contains a space');
    expect(errorsOf((j) => (j.ID = 'a\0b'))).toContain('Job ID contains a null character');
    expect(errorsOf((j) => (j.ID = 'parent/periodic-1700000000'))).toEqual([]);
  });

  it('requires at least one task group', () => {
    expect(errorsOf((j) => (j.TaskGroups = []))).toContain('Job must have at least one task group');
  });

  it('checks the job type', () => {
    expect(errorsOf((j) => (j.Type = 'cron'))).toContain('Invalid job type: "cron"');
  });

  it('checks priority bounds 1..100', () => {
    expect(errorsOf((j) => (j.Priority = 0))).toContain('Job priority must be between [1, 100]');
    expect(errorsOf((j) => (j.Priority = 101))).toContain('Job priority must be between [1, 100]');
    expect(errorsOf((j) => (j.Priority = 1))).toEqual([]);
    expect(errorsOf((j) => (j.Priority = 100))).toEqual([]);
  });

  it('rejects empty datacenter names', () => {
    expect(errorsOf((j) => (j.Datacenters = ['dc1', '']))).toContain('Job datacenter must be non-empty string');
  });

  it('rejects duplicate and unnamed task groups', () => {
    const errs = errorsOf((j) => {
      j.TaskGroups.push({ ...j.TaskGroups[0] }, { Tasks: j.TaskGroups[0].Tasks });
    });
    expect(errs).toContain("Job task group 2 redefines 'g' from group 1");
    expect(errs).toContain('Job task group 3 missing name');
  });

  it('rejects duplicate and unnamed tasks', () => {
    const errs = errorsOf((j) => {
      const t = j.TaskGroups[0].Tasks[0];
      j.TaskGroups[0].Tasks.push({ ...t }, { Driver: 'exec' });
    });
    expect(errs).toContain("Task group g validation failed: Task 2 redefines 't' from task 1");
    expect(errs).toContain('Task group g validation failed: Task 3 missing name');
  });

  it('rejects a group without tasks', () => {
    expect(errorsOf((j) => (j.TaskGroups[0].Tasks = []))).toContain('Task group g validation failed: Missing tasks for task group');
  });

  it('rejects system groups with count above 1', () => {
    expect(errorsOf((j) => (j.TaskGroups[0].Count = 2), 'system')).toContain(
      'Job task group g has count 2. Count cannot exceed 1 with system scheduler',
    );
    expect(errorsOf((j) => (j.TaskGroups[0].Count = 2), 'service')).toEqual([]);
  });

  it('validates restart policies', () => {
    expect(errorsOf((j) => (j.TaskGroups[0].RestartPolicy = { Mode: 'delay' }))).toEqual([]);
    expect(errorsOf((j) => (j.TaskGroups[0].RestartPolicy = { Mode: 'never' }))).toContain(
      'Task group g validation failed: Unsupported restart mode: "never"',
    );
    expect(errorsOf((j) => (j.TaskGroups[0].RestartPolicy = { Attempts: 0, Mode: 'delay' }))).toContain(
      'Task group g validation failed: Restart policy "delay" with 0 attempts is ambiguous',
    );
    const tooMany = errorsOf((j) => (j.TaskGroups[0].RestartPolicy = { Attempts: 10, Interval: 60 * SEC, Delay: 15 * SEC }));
    expect(tooMany).toContain("Task group g validation failed: Nomad can't restart the TaskGroup g 10 times in an interval of 1m0s with a delay of 15s");
    expect(errorsOf((j) => (j.TaskGroups[0].RestartPolicy = { Attempts: 0, Interval: SEC }))).toContain(
      'Task group g validation failed: Interval can not be less than 5s (got 1s)',
    );
  });

  it('validates reschedule policies', () => {
    const ambiguous = errorsOf((j) => (j.TaskGroups[0].ReschedulePolicy = { Attempts: 3, Unlimited: true }));
    expect(ambiguous.some((e) => e.includes('Unlimited = true is ambiguous'))).toBe(true);
    expect(errorsOf((j) => (j.TaskGroups[0].ReschedulePolicy = { Delay: SEC }))).toContain(
      'Task group g validation failed: Delay cannot be less than 5s (got 1s)',
    );
    expect(errorsOf((j) => (j.TaskGroups[0].ReschedulePolicy = { DelayFunction: 'linear' })).some((e) => e.includes('Invalid delay function "linear"'))).toBe(true);
    expect(errorsOf((j) => (j.TaskGroups[0].ReschedulePolicy = { Unlimited: false, Attempts: 2, Interval: SEC })).some((e) => e.includes('Interval cannot be less than 15s'))).toBe(true);
    expect(errorsOf((j) => (j.TaskGroups[0].ReschedulePolicy = { Unlimited: false, Attempts: 2, Interval: 60 * SEC }))).toEqual([]);
  });

  it('validates update strategies', () => {
    expect(errorsOf((j) => (j.Update = { HealthCheck: 'vibes' }))).toContain(
      'Task group g validation failed: Update strategy validation failed: Invalid health check given: "vibes"',
    );
    expect(errorsOf((j) => (j.TaskGroups[0].Update = { MinHealthyTime: 10 * 60 * SEC })).some((e) => e.includes('Minimum healthy time must be less than healthy deadline'))).toBe(true);
    expect(errorsOf((j) => (j.TaskGroups[0].Update = { Canary: 2, AutoPromote: true }))).toEqual([]);
  });

  it('accepts every Nomad constraint operator and rejects others', () => {
    const ok: [string, string, string][] = [
      ['${attr.kernel.name}', 'linux', '='],
      ['${attr.kernel.name}', 'linux', '=='],
      ['${attr.kernel.name}', 'linux', 'is'],
      ['${attr.kernel.name}', 'windows', '!='],
      ['${attr.kernel.name}', 'windows', 'not'],
      ['${attr.cpu.numcores}', '4', '<'],
      ['${attr.cpu.numcores}', '4', '<='],
      ['${attr.cpu.numcores}', '4', '>'],
      ['${attr.cpu.numcores}', '4', '>='],
      ['${attr.os.name}', '^ubuntu', 'regexp'],
      ['${attr.os.signals}', 'SIGHUP', 'set_contains'],
      ['${attr.os.signals}', 'SIGHUP,SIGINT', 'set_contains_all'],
      ['${meta.tags}', 'a,b', 'set_contains_any'],
      ['${attr.nomad.version}', '>= 1.4.0', 'version'],
      ['${attr.nomad.version}', '>= 1.4.0, < 2.0', 'semver'],
      ['', 'true', 'distinct_hosts'],
      ['${meta.rack}', '', 'distinct_property'],
      ['${meta.rack}', '2', 'distinct_property'],
      ['${attr.driver.docker}', '', 'is_set'],
      ['${attr.driver.docker}', '', 'is_not_set'],
    ];
    for (const [LTarget, RTarget, Operand] of ok) {
      expect(errorsOf((j) => (j.Constraints = [{ LTarget, RTarget, Operand }])), Operand).toEqual([]);
    }
    expect(errorsOf((j) => (j.Constraints = [{ LTarget: 'a', RTarget: 'b', Operand: '~=' }]))).toEqual([
      'Constraint 1 validation failed: Unknown constraint type "~="',
    ]);
  });

  it('checks constraint targets by operator', () => {
    const c = (LTarget: string, RTarget: string, Operand: string) =>
      errorsOf((j) => (j.TaskGroups[0].Constraints = [{ LTarget, RTarget, Operand }]));
    expect(c('a', 'b', '')).toContain('Task group g validation failed: Constraint 1 validation failed: Missing constraint operand');
    expect(c('a', '', '=')).toContain('Task group g validation failed: Constraint 1 validation failed: Operator "=" requires an RTarget');
    expect(c('', 'b', '=')).toContain('Task group g validation failed: Constraint 1 validation failed: No LTarget provided but is required by constraint');
    expect(c('a', '', 'set_contains')).toContain('Task group g validation failed: Constraint 1 validation failed: Set contains constraint requires an RTarget');
    expect(c('a', '(', 'regexp').some((e) => e.includes('Regular expression failed to compile'))).toBe(true);
    expect(c('a', 'latest', 'version').some((e) => e.includes('Version constraint is invalid'))).toBe(true);
    expect(c('a', 'x', 'distinct_property').some((e) => e.includes('Failed to convert RTarget "x" to uint64'))).toBe(true);
    expect(c('a', '0', 'distinct_property').some((e) => e.includes('allowed count of 1 or greater'))).toBe(true);
    expect(c('a', 'b', 'is_set')).toContain('Task group g validation failed: Constraint 1 validation failed: Operator "is_set" does not support an RTarget');
  });

  it('rejects distinct_hosts at task level', () => {
    const errs = errorsOf((j) => (j.TaskGroups[0].Tasks[0].Constraints = [{ Operand: 'distinct_hosts', RTarget: 'true' }]));
    expect(errs.some((e) => e.includes('Distinct hosts constraint cannot be set at the task level'))).toBe(true);
  });

  it('checks affinity weights and spreads', () => {
    expect(errorsOf((j) => (j.Affinities = [{ LTarget: 'a', RTarget: 'b', Operand: '=', Weight: 0 }])).some((e) => e.includes('Affinity weight'))).toBe(true);
    expect(errorsOf((j) => (j.Affinities = [{ LTarget: 'a', RTarget: 'b', Operand: '=', Weight: -100 }]))).toEqual([]);
    expect(
      errorsOf((j) => (j.Spreads = [{ Attribute: '${node.datacenter}', SpreadTarget: [{ Value: 'a', Percent: 70 }, { Value: 'b', Percent: 40 }] }])).some((e) =>
        e.includes('must not be greater than 100%'),
      ),
    ).toBe(true);
  });

  it('allows periodic and parameterized only for batch and sysbatch', () => {
    const periodic: Patch = (j) => (j.Periodic = { Spec: '*/5 * * * *' });
    expect(errorsOf(periodic, 'service')).toContain('Periodic can only be used with "batch" or "sysbatch" scheduler');
    expect(errorsOf(periodic, 'batch')).toEqual([]);
    expect(errorsOf(periodic, 'sysbatch')).toEqual([]);
    const param: Patch = (j) => (j.ParameterizedJob = { Payload: 'required', MetaRequired: ['a'] });
    expect(errorsOf(param, 'system')).toContain('Parameterized job can only be used with "batch" or "sysbatch" scheduler');
    expect(errorsOf(param, 'batch')).toEqual([]);
  });

  it('validates periodic specs and parameterized settings', () => {
    expect(errorsOf((j) => (j.Periodic = {}), 'batch')).toContain('Periodic validation failed: Must specify a spec');
    expect(errorsOf((j) => (j.Periodic = { Spec: 'every day' }), 'batch').some((e) => e.includes('Invalid cron spec'))).toBe(true);
    expect(errorsOf((j) => (j.Periodic = { Specs: ['@daily', '0 3 * * 1'], TimeZone: 'Europe/Berlin' }), 'batch')).toEqual([]);
    expect(errorsOf((j) => (j.Periodic = { Spec: '@daily', TimeZone: 'Mars/Olympus' }), 'batch')).toContain(
      'Periodic validation failed: Invalid time zone "Mars/Olympus"',
    );
    expect(errorsOf((j) => (j.ParameterizedJob = { Payload: 'maybe' }), 'batch')).toContain(
      'Parameterized job validation failed: Unknown payload requirement: "maybe"',
    );
  });

  it('checks task resources, logs and lifecycle', () => {
    const t = (patch: (t: Record<string, unknown>) => void) => errorsOf((j) => patch(j.TaskGroups[0].Tasks[0]));
    const pre = 'Task group g validation failed: Task t validation failed: ';
    expect(t((x) => (x.Resources = { MemoryMB: 5 }))).toContain(`${pre}Resources validation failed: minimum MemoryMB value is 10; got 5`);
    expect(t((x) => (x.Resources = { CPU: 0 }))).toContain(`${pre}Resources validation failed: minimum CPU value is 1; got 0`);
    expect(t((x) => (x.Resources = { MemoryMB: 512, MemoryMaxMB: 256 }))).toContain(
      `${pre}Resources validation failed: MemoryMaxMB value (256) should be larger than MemoryMB value (512)`,
    );
    expect(t((x) => (x.LogConfig = { MaxFiles: 0 }))).toContain(`${pre}minimum number of files is 1; got 0`);
    expect(t((x) => (x.LogConfig = { MaxFiles: 40 }))).toContain(`${pre}log storage (400 MB) must be less than requested disk capacity (300 MB)`);
    expect(t((x) => (x.Lifecycle = { Hook: 'midstart' }))).toContain(`${pre}invalid hook: midstart`);
    expect(t((x) => (x.Lifecycle = { Hook: 'poststop' }))).toEqual([]);
    expect(t((x) => (x.Name = 'a/b')).some((e) => e.includes('Task name can not include slashes'))).toBe(true);
    expect(t((x) => (x.KillTimeout = -1))).toContain(`${pre}KillTimeout must be a positive value`);
  });

  it('allows one leader per group', () => {
    const errs = errorsOf((j) => {
      j.TaskGroups[0].Tasks[0].Leader = true;
      j.TaskGroups[0].Tasks.push({ Name: 'u', Driver: 'raw_exec', Leader: true });
    });
    expect(errs).toContain('Task group g validation failed: Only one task may be marked as leader');
  });

  it('checks port labels and static port collisions', () => {
    const errs = errorsOf(
      (j) =>
        (j.TaskGroups[0].Networks = [
          { ReservedPorts: [{ Label: 'http', Value: 80 }, { Label: 'alt', Value: 80 }], DynamicPorts: [{ Label: 'http' }] },
        ]),
    );
    expect(errs).toContain('Task group g validation failed: Port label http already in use');
    expect(errs).toContain('Task group g validation failed: Static port 80 already reserved by another port');
    expect(errorsOf((j) => (j.TaskGroups[0].Networks = [{ DynamicPorts: [{ Label: 'http', To: 8080 }] }]))).toEqual([]);
  });

  it('checks templates and artifacts', () => {
    const errs = errorsOf((j) => {
      j.TaskGroups[0].Tasks[0].Templates = [{ ChangeMode: 'explode' }];
      j.TaskGroups[0].Tasks[0].Artifacts = [{}];
    });
    const pre = 'Task group g validation failed: Task t validation failed: ';
    expect(errs).toContain(`${pre}Template 1 validation failed: Must specify a source path or have an embedded template`);
    expect(errs).toContain(`${pre}Template 1 validation failed: Must specify a destination for the template`);
    expect(errs).toContain(`${pre}Template 1 validation failed: Invalid change mode (explode)`);
    expect(errs).toContain(`${pre}Artifact 1 validation failed: source must be specified`);
  });

  it('checks service checks', () => {
    const errs = errorsOf((j) => (j.TaskGroups[0].Services = [{ Name: 'web', Provider: 'nomad', Checks: [{ Type: 'script', Command: 'x', Interval: SEC, Timeout: SEC }] }]));
    expect(errs.some((e) => e.includes('not supported by the nomad provider'))).toBe(true);
    expect(errorsOf((j) => (j.TaskGroups[0].Services = [{ Name: 'web', Provider: 'nomad', Checks: [{ Type: 'http', Path: '/', Interval: 10 * SEC, Timeout: 2 * SEC }] }]))).toEqual([]);
  });

  it('allows a parameterized job to be periodic', () => {
    expect(errorsOf((j) => ((j.Periodic = { Specs: ['@daily'] }), (j.ParameterizedJob = {})), 'batch')).toEqual([]);
  });

  it('checks vault change modes and duplicate identities', () => {
    const pre = 'Task group g validation failed: Task t validation failed: ';
    expect(errorsOf((j) => (j.TaskGroups[0].Tasks[0].Vault = { ChangeMode: 'reboot' }))).toContain(`${pre}Vault: invalid change mode "reboot"`);
    expect(errorsOf((j) => (j.TaskGroups[0].Tasks[0].Vault = { ChangeMode: 'signal' }))).toEqual([]);
    expect(errorsOf((j) => (j.TaskGroups[0].Tasks[0].Identities = [{ Name: 'aws' }, { Name: 'aws' }]))).toContain(`${pre}Identity aws is duplicate`);
    expect(errorsOf((j) => (j.TaskGroups[0].Tasks[0].Identities = [{ Name: 'aws' }, { Name: 'gcp' }]))).toEqual([]);
  });

  it('accepts a valid task schedule and names the field of a bad one', () => {
    const pre = 'Task group g validation failed: Task t validation failed: Schedule: ';
    expect(errorsOf((j) => (j.TaskGroups[0].Tasks[0].Schedule = { Cron: { Start: '0 9 * * 1-5 *', End: '0 17', Timezone: 'America/New_York' } }))).toEqual([]);
    const errs = errorsOf((j) => (j.TaskGroups[0].Tasks[0].Schedule = { Cron: { Start: '0 9 * * 1-5', End: '0 17', Timezone: 'Nowhere/Special' } }));
    expect(errs.some((e) => e.startsWith(`${pre}cron.start must contain 6 fields`))).toBe(true);
    expect(errs).toContain(`${pre}cron.timezone: unknown time zone "Nowhere/Special"`);
  });

  it('rejects max_run_duration outside batch jobs', () => {
    expect(errorsOf((j) => (j.TaskGroups[0].MaxRunDuration = 60 * SEC), 'service').some((e) => e.includes('max_run_duration'))).toBe(true);
    expect(errorsOf((j) => (j.TaskGroups[0].MaxRunDuration = 60 * SEC), 'batch')).toEqual([]);
  });

  it('rejects a dispatch payload on a job that is not parameterized', () => {
    expect(errorsOf((j) => (j.TaskGroups[0].Tasks[0].DispatchPayload = { File: 'in.json' }), 'batch')).toContain(
      'Task group g validation failed: Task t validation failed: Dispatch payload can only be used with parameterized jobs',
    );
    expect(
      errorsOf((j) => {
        j.ParameterizedJob = {};
        j.TaskGroups[0].Tasks[0].DispatchPayload = { File: 'in.json' };
      }, 'batch'),
    ).toEqual([]);
  });

  it('rejects volume mounts of undefined volumes', () => {
    expect(
      errorsOf((j) => (j.TaskGroups[0].Tasks[0].VolumeMounts = [{ Volume: 'data', Destination: '/data' }])).some((e) => e.includes('undefined volume data')),
    ).toBe(true);
    expect(
      errorsOf((j) => {
        j.TaskGroups[0].Volumes = { data: { Type: 'host', Source: 'data' } };
        j.TaskGroups[0].Tasks[0].VolumeMounts = [{ Volume: 'data', Destination: '/data' }];
      }),
    ).toEqual([]);
  });
});

describe('jobWarnings', () => {
  it('warns about the deprecated single cron spec but not about crons', () => {
    expect(jobWarnings(job((j) => (j.Periodic = { Spec: '@daily' }), 'batch'))).toEqual([
      'cron is deprecated and may be removed in a future release. Use crons instead',
    ]);
    expect(jobWarnings(job((j) => (j.Periodic = { Specs: ['@daily'] }), 'batch'))).toEqual([]);
  });

  it('warns when only some canary groups auto-promote', () => {
    const half = job((j) => {
      j.TaskGroups[0].Update = { Canary: 1, AutoPromote: true };
      j.TaskGroups.push({ Name: 'h', Update: { Canary: 1 }, Tasks: [{ Name: 't', Driver: 'raw_exec' }] });
    });
    expect(jobWarnings(half)).toEqual(['auto_promote must be true for all groups to enable automatic promotion']);
    const all = job((j) => (j.Update = { Canary: 1, AutoPromote: true }));
    expect(jobWarnings(all)).toEqual([]);
  });
});
