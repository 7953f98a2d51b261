/**
 * The structs derived from the field tables are the ones the server has always stored: the same field
 * types, the same defaults, the same input schema and the same job-file arguments.
 */
import { describe, expect, expectTypeOf, it } from 'vitest';
import { defaultsOf, hclArgumentsOf, NS, schemaOf, zeroOf } from '../../../src/scheduler/wire/job/fields.js';
import * as placementTables from '../../../src/scheduler/wire/job/placement.js';
import * as policyTables from '../../../src/scheduler/wire/job/policies.js';
import * as resourceTables from '../../../src/scheduler/wire/job/resources.js';
import * as serviceTables from '../../../src/scheduler/wire/job/service.js';
import * as taskTables from '../../../src/scheduler/wire/job/task.js';
import * as groupTables from '../../../src/scheduler/wire/job/group.js';
import type { TaskGroup, VolumeRequest } from '../../../src/scheduler/structs/task-group.js';
import type { Job, JobUI, JobVersionTag } from '../../../src/scheduler/structs/job.js';
import * as jobTables from '../../../src/scheduler/wire/job/job.js';
import { JOB_SCHEMA } from '../../../src/scheduler/structs/schema.js';
import type {
  Task,
  ChangeScript,
  DispatchPayloadConfig,
  LogConfig,
  Secret,
  TaskAction,
  TaskArtifact,
  TaskLifecycle,
  TaskSchedule,
  Template,
  Vault,
  VolumeMount,
  WorkloadIdentity,
} from '../../../src/scheduler/structs/task.js';
import type { CheckRestart, Service, ServiceCheck } from '../../../src/scheduler/structs/service.js';
import type { Affinity, Constraint, Spread, SpreadTarget } from '../../../src/scheduler/structs/constraint.js';
import type { DNSConfig, NetworkResource, NUMAResource, Port, RequestedDevice, Resources } from '../../../src/scheduler/structs/resources.js';
import {
  defaultMigrateStrategy,
  defaultReschedulePolicy,
  defaultRestartPolicy,
  defaultUpdateStrategy,
  emptyUpdateStrategy,
  type DisconnectStrategy,
  type EphemeralDisk,
  type MigrateStrategy,
  type ParameterizedJobConfig,
  type PeriodicConfig,
  type ReschedulePolicy,
  type RestartPolicy,
  type ScalingPolicy,
  type UpdateStrategy,
} from '../../../src/scheduler/structs/policies.js';

describe('policy structs', () => {
  it('have the field types the scheduler reads', () => {
    expectTypeOf<RestartPolicy>().toEqualTypeOf<{ Attempts: number; Interval: number; Delay: number; Mode: string; RenderTemplates: boolean }>();
    expectTypeOf<ReschedulePolicy>().toEqualTypeOf<{
      Attempts: number;
      Interval: number;
      Delay: number;
      DelayFunction: string;
      MaxDelay: number;
      Unlimited: boolean;
    }>();
    expectTypeOf<UpdateStrategy>().toEqualTypeOf<{
      Stagger: number;
      MaxParallel: number;
      HealthCheck: string;
      MinHealthyTime: number;
      HealthyDeadline: number;
      ProgressDeadline: number;
      AutoRevert: boolean;
      AutoPromote: boolean;
      Canary: number;
    }>();
    expectTypeOf<MigrateStrategy>().toEqualTypeOf<{ MaxParallel: number; HealthCheck: string; MinHealthyTime: number; HealthyDeadline: number }>();
    expectTypeOf<PeriodicConfig>().toEqualTypeOf<{
      Enabled: boolean;
      Spec: string;
      Specs: string[];
      SpecType: string;
      ProhibitOverlap: boolean;
      TimeZone: string;
    }>();
    expectTypeOf<ParameterizedJobConfig>().toEqualTypeOf<{ Payload: string; MetaRequired: string[] | null; MetaOptional: string[] | null }>();
    expectTypeOf<EphemeralDisk>().toEqualTypeOf<{ Sticky: boolean; SizeMB: number; Migrate: boolean }>();
    expectTypeOf<DisconnectStrategy>().toEqualTypeOf<{ LostAfter: number; StopOnClientAfter: number | null; Replace: boolean | null; Reconcile: string }>();
    expectTypeOf<ScalingPolicy>().toEqualTypeOf<{
      ID: string;
      Type: string;
      Target: Record<string, string> | null;
      Policy: Record<string, unknown> | null;
      Min: number;
      Max: number;
      Enabled: boolean;
      CreateIndex: number;
      ModifyIndex: number;
    }>();
  });

  it('default as Nomad does, by job type, with fields in their wire order', () => {
    const batchRestart = { Attempts: 3, Interval: 24 * NS.hour, Delay: 15 * NS.second, Mode: 'fail', RenderTemplates: false };
    const serviceRestart = { Attempts: 2, Interval: 30 * NS.minute, Delay: 15 * NS.second, Mode: 'fail', RenderTemplates: false };
    const ordered = (v: object) => JSON.stringify(v);
    expect(ordered(defaultRestartPolicy('batch'))).toBe(ordered(batchRestart));
    expect(ordered(defaultRestartPolicy('sysbatch'))).toBe(ordered(batchRestart));
    expect(ordered(defaultRestartPolicy('service'))).toBe(ordered(serviceRestart));
    expect(ordered(defaultRestartPolicy('system'))).toBe(ordered(serviceRestart));
    expect(ordered(defaultReschedulePolicy('service')!)).toBe(
      ordered({ Attempts: 0, Interval: 0, Delay: 30 * NS.second, DelayFunction: 'exponential', MaxDelay: NS.hour, Unlimited: true }),
    );
    expect(ordered(defaultReschedulePolicy('batch')!)).toBe(
      ordered({ Attempts: 1, Interval: 24 * NS.hour, Delay: 5 * NS.second, DelayFunction: 'constant', MaxDelay: 0, Unlimited: false }),
    );
    expect(defaultReschedulePolicy('system')).toBeNull();
    expect(defaultReschedulePolicy('sysbatch')).toBeNull();
    expect(ordered(defaultUpdateStrategy())).toBe(
      ordered({
        Stagger: 30 * NS.second,
        MaxParallel: 1,
        HealthCheck: 'checks',
        MinHealthyTime: 10 * NS.second,
        HealthyDeadline: 5 * NS.minute,
        ProgressDeadline: 10 * NS.minute,
        AutoRevert: false,
        AutoPromote: false,
        Canary: 0,
      }),
    );
    expect(ordered(emptyUpdateStrategy())).toBe(
      ordered({ Stagger: 0, MaxParallel: 0, HealthCheck: '', MinHealthyTime: 0, HealthyDeadline: 0, ProgressDeadline: 0, AutoRevert: false, AutoPromote: false, Canary: 0 }),
    );
    expect(ordered(defaultMigrateStrategy())).toBe(ordered({ MaxParallel: 1, HealthCheck: 'checks', MinHealthyTime: 10 * NS.second, HealthyDeadline: 5 * NS.minute }));
    expect(ordered(defaultsOf(policyTables.EPHEMERAL_DISK))).toBe(ordered({ Sticky: false, SizeMB: 300, Migrate: false }));
  });

  it('hand out a fresh default each time', () => {
    const a = defaultsOf(policyTables.PERIODIC);
    a.Specs.push('* * * * *');
    expect(defaultsOf(policyTables.PERIODIC).Specs).toEqual([]);
    expect(zeroOf(policyTables.DISCONNECT)).toEqual({ LostAfter: 0, StopOnClientAfter: null, Replace: null, Reconcile: '' });
  });

  it('give the input schema and the job-file arguments they replaced', () => {
    expect(schemaOf(policyTables.UPDATE)).toEqual({
      Stagger: 'duration',
      MaxParallel: 'int',
      HealthCheck: 'string',
      MinHealthyTime: 'duration',
      HealthyDeadline: 'duration',
      ProgressDeadline: 'duration',
      AutoRevert: 'bool',
      AutoPromote: 'bool',
      Canary: 'int',
    });
    expect(hclArgumentsOf(policyTables.PERIODIC)).toEqual({
      enabled: { json: 'Enabled', type: 'bool' },
      cron: { json: 'Spec', type: 'string' },
      crons: { json: 'Specs', type: 'strings' },
      prohibit_overlap: { json: 'ProhibitOverlap', type: 'bool' },
      time_zone: { json: 'TimeZone', type: 'string' },
    });
    expect(hclArgumentsOf(policyTables.SCALING)).toEqual({
      type: { json: 'Type', type: 'string' },
      min: { json: 'Min', type: 'int' },
      max: { json: 'Max', type: 'int' },
      enabled: { json: 'Enabled', type: 'bool' },
    });
    expect(hclArgumentsOf(policyTables.EPHEMERAL_DISK)).toEqual({
      sticky: { json: 'Sticky', type: 'bool' },
      size: { json: 'SizeMB', type: 'int' },
      migrate: { json: 'Migrate', type: 'bool' },
    });
  });
});

describe('placement structs', () => {
  it('have the field types the scheduler reads', () => {
    expectTypeOf<Constraint>().toEqualTypeOf<{ LTarget: string; RTarget: string; Operand: string }>();
    expectTypeOf<Affinity>().toEqualTypeOf<{ LTarget: string; RTarget: string; Operand: string; Weight: number }>();
    expectTypeOf<SpreadTarget>().toEqualTypeOf<{ Value: string; Percent: number }>();
    expectTypeOf<Spread>().toEqualTypeOf<{ Attribute: string; Weight: number; SpreadTarget: { Value: string; Percent: number }[] | null }>();
  });

  it('give the input schema and the job-file arguments they replaced', () => {
    expect(schemaOf(placementTables.SPREAD)).toEqual({ Attribute: 'string', Weight: 'int', SpreadTarget: { list: { Value: 'string', Percent: 'int' } } });
    expect(schemaOf(placementTables.AFFINITY)).toEqual({ LTarget: 'string', RTarget: 'string', Operand: 'string', Weight: 'int' });
    expect(hclArgumentsOf(placementTables.AFFINITY)).toEqual({
      attribute: { json: 'LTarget', type: 'string' },
      value: { json: 'RTarget', type: 'string' },
      operator: { json: 'Operand', type: 'string' },
      weight: { json: 'Weight', type: 'int' },
    });
    expect(hclArgumentsOf(placementTables.SPREAD)).toEqual({ attribute: { json: 'Attribute', type: 'string' }, weight: { json: 'Weight', type: 'int' } });
    expect(defaultsOf(placementTables.SPREAD)).toEqual({ Attribute: '', Weight: 50, SpreadTarget: null });
  });
});

describe('resource structs', () => {
  it('have the field types the scheduler reads', () => {
    type ExpectedPort = { Label: string; Value: number; To: number; HostNetwork: string; IgnoreCollision: boolean };
    type ExpectedDNS = { Servers: string[] | null; Searches: string[] | null; Options: string[] | null };
    type ExpectedNetwork = {
      Mode: string;
      Device: string;
      CIDR: string;
      IP: string;
      Hostname: string;
      MBits: number;
      DNS: ExpectedDNS | null;
      ReservedPorts: ExpectedPort[] | null;
      DynamicPorts: ExpectedPort[] | null;
      CNI: { Args: Record<string, string> | null } | null;
    };
    type ExpectedDevice = { Name: string; Count: number; Constraints: Constraint[] | null; Affinities: Affinity[] | null };
    type ExpectedNUMA = { Affinity: string; Devices: string[] | null };
    expectTypeOf<Port>().toEqualTypeOf<ExpectedPort>();
    expectTypeOf<DNSConfig>().toEqualTypeOf<ExpectedDNS>();
    expectTypeOf<NetworkResource>().toEqualTypeOf<ExpectedNetwork>();
    expectTypeOf<RequestedDevice>().toEqualTypeOf<ExpectedDevice>();
    expectTypeOf<NUMAResource>().toEqualTypeOf<ExpectedNUMA>();
    expectTypeOf<Resources>().toEqualTypeOf<{
      CPU: number;
      Cores: number;
      MemoryMB: number;
      MemoryMaxMB: number;
      DiskMB: number;
      IOPS: number;
      Networks: ExpectedNetwork[] | null;
      Devices: ExpectedDevice[] | null;
      NUMA: ExpectedNUMA | null;
      SecretsMB: number;
    }>();
  });

  it('give the input schema and the job-file arguments they replaced', () => {
    const port = { Label: 'string', Value: 'int', To: 'int', HostNetwork: 'string', IgnoreCollision: 'bool' };
    expect(schemaOf(resourceTables.NETWORK)).toEqual({
      Mode: 'string',
      Device: 'string',
      CIDR: 'string',
      IP: 'string',
      Hostname: 'string',
      MBits: 'int',
      DNS: { obj: { Servers: 'strings', Searches: 'strings', Options: 'strings' } },
      ReservedPorts: { list: port },
      DynamicPorts: { list: port },
      CNI: { obj: { Args: 'stringMap' } },
    });
    expect(Object.keys(schemaOf(resourceTables.RESOURCES))).toEqual(['CPU', 'Cores', 'MemoryMB', 'MemoryMaxMB', 'DiskMB', 'IOPS', 'Networks', 'Devices', 'NUMA', 'SecretsMB']);
    expect(hclArgumentsOf(resourceTables.PORT)).toEqual({
      static: { json: 'Value', type: 'int' },
      to: { json: 'To', type: 'int' },
      host_network: { json: 'HostNetwork', type: 'string' },
      ignore_collision: { json: 'IgnoreCollision', type: 'bool' },
    });
    expect(hclArgumentsOf(resourceTables.RESOURCES)).toEqual({
      cpu: { json: 'CPU', type: 'int' },
      cores: { json: 'Cores', type: 'int' },
      memory: { json: 'MemoryMB', type: 'int' },
      memory_max: { json: 'MemoryMaxMB', type: 'int' },
      disk: { json: 'DiskMB', type: 'int' },
      iops: { json: 'IOPS', type: 'int' },
      secrets: { json: 'SecretsMB', type: 'int' },
    });
  });
});

describe('service structs', () => {
  it('have the field types the scheduler reads', () => {
    type ExpectedCheckRestart = { Limit: number; Grace: number; IgnoreWarnings: boolean };
    type ExpectedCheck = {
      Name: string;
      Type: string;
      Command: string;
      Args: string[] | null;
      Path: string;
      Protocol: string;
      PortLabel: string;
      Expose: boolean;
      AddressMode: string;
      Advertise: string;
      Interval: number;
      Timeout: number;
      InitialStatus: string;
      Notes: string;
      TLSServerName: string;
      TLSSkipVerify: boolean;
      Header: Record<string, string[]> | null;
      Method: string;
      Body: string;
      CheckRestart: ExpectedCheckRestart | null;
      GRPCService: string;
      GRPCUseTLS: boolean;
      TaskName: string;
      SuccessBeforePassing: number;
      FailuresBeforeCritical: number;
      FailuresBeforeWarning: number;
      OnUpdate: string;
    };
    expectTypeOf<CheckRestart>().toEqualTypeOf<ExpectedCheckRestart>();
    expectTypeOf<ServiceCheck>().toEqualTypeOf<ExpectedCheck>();
    expectTypeOf<Service>().toEqualTypeOf<{
      Name: string;
      TaskName: string;
      PortLabel: string;
      AddressMode: string;
      Address: string;
      Tags: string[] | null;
      CanaryTags: string[] | null;
      EnableTagOverride: boolean;
      Checks: ExpectedCheck[] | null;
      Connect: Record<string, unknown> | null;
      Meta: Record<string, string> | null;
      CanaryMeta: Record<string, string> | null;
      TaggedAddresses: Record<string, string> | null;
      OnUpdate: string;
      Provider: string;
      Cluster: string;
      Kind: string;
      Namespace: string;
      Identity: Record<string, unknown> | null;
      Weights: { Passing: number; Warning: number } | null;
    }>();
  });

  it('accept the input-only check_restart of a service without storing it', () => {
    expect(schemaOf(serviceTables.SERVICE).CheckRestart).toEqual({ obj: { Limit: 'int', Grace: 'duration', IgnoreWarnings: 'bool' } });
    expect('CheckRestart' in defaultsOf(serviceTables.SERVICE)).toBe(false);
    expect('CheckRestart' in zeroOf(serviceTables.SERVICE)).toBe(false);
  });

  it('give the job-file arguments they replaced', () => {
    const named = (table: Parameters<typeof hclArgumentsOf>[0]) =>
      Object.fromEntries(Object.entries(hclArgumentsOf(table)).map(([hcl, arg]) => [hcl, `${arg.json}:${arg.type}`]));
    expect(named(serviceTables.SERVICE)).toEqual({
      name: 'Name:string',
      provider: 'Provider:string',
      port: 'PortLabel:string',
      tags: 'Tags:strings',
      canary_tags: 'CanaryTags:strings',
      address: 'Address:string',
      address_mode: 'AddressMode:string',
      task: 'TaskName:string',
      on_update: 'OnUpdate:string',
      enable_tag_override: 'EnableTagOverride:bool',
      cluster: 'Cluster:string',
      kind: 'Kind:string',
      meta: 'Meta:stringMap',
      canary_meta: 'CanaryMeta:stringMap',
      tagged_addresses: 'TaggedAddresses:stringMap',
    });
    expect(named(serviceTables.CHECK)).toEqual({
      name: 'Name:string',
      type: 'Type:string',
      command: 'Command:string',
      args: 'Args:strings',
      path: 'Path:string',
      protocol: 'Protocol:string',
      method: 'Method:string',
      body: 'Body:string',
      port: 'PortLabel:string',
      address_mode: 'AddressMode:string',
      advertise: 'Advertise:string',
      interval: 'Interval:duration',
      timeout: 'Timeout:duration',
      initial_status: 'InitialStatus:string',
      notes: 'Notes:string',
      task: 'TaskName:string',
      on_update: 'OnUpdate:string',
      expose: 'Expose:bool',
      tls_server_name: 'TLSServerName:string',
      tls_skip_verify: 'TLSSkipVerify:bool',
      grpc_service: 'GRPCService:string',
      grpc_use_tls: 'GRPCUseTLS:bool',
      success_before_passing: 'SuccessBeforePassing:int',
      failures_before_critical: 'FailuresBeforeCritical:int',
      failures_before_warning: 'FailuresBeforeWarning:int',
      header: 'Header:stringListMap',
    });
  });
});

describe('task blocks', () => {
  it('have the field types the scheduler reads', () => {
    expectTypeOf<TaskLifecycle>().toEqualTypeOf<{ Hook: string; Sidecar: boolean }>();
    expectTypeOf<LogConfig>().toEqualTypeOf<{ MaxFiles: number; MaxFileSizeMB: number; Disabled: boolean }>();
    expectTypeOf<TaskArtifact>().toEqualTypeOf<{
      GetterSource: string;
      GetterOptions: Record<string, string> | null;
      GetterHeaders: Record<string, string> | null;
      GetterMode: string;
      GetterInsecure: boolean;
      RelativeDest: string;
      Chown: boolean;
    }>();
    type ExpectedChangeScript = { Command: string; Args: string[]; Timeout: number; FailOnError: boolean };
    expectTypeOf<ChangeScript>().toEqualTypeOf<ExpectedChangeScript>();
    expectTypeOf<Template>().toEqualTypeOf<{
      SourcePath: string;
      DestPath: string;
      EmbeddedTmpl: string;
      ChangeMode: string;
      ChangeSignal: string;
      ChangeScript: ExpectedChangeScript | null;
      Once: boolean;
      Splay: number;
      Perms: string;
      Uid: number | null;
      Gid: number | null;
      LeftDelim: string;
      RightDelim: string;
      Envvars: boolean;
      VaultGrace: number;
      Wait: { Min: number | null; Max: number | null } | null;
      ErrMissingKey: boolean;
    }>();
    expectTypeOf<DispatchPayloadConfig>().toEqualTypeOf<{ File: string }>();
    expectTypeOf<Vault>().toEqualTypeOf<{
      Role: string;
      Namespace: string;
      Cluster: string;
      Env: boolean;
      DisableFile: boolean;
      ChangeMode: string;
      ChangeSignal: string;
      AllowTokenExpiration: boolean;
      Policies: string[] | null;
    }>();
    expectTypeOf<WorkloadIdentity>().toEqualTypeOf<{
      Name: string;
      Audience: string[] | null;
      ChangeMode: string;
      ChangeSignal: string;
      Env: boolean;
      File: boolean;
      Filepath: string;
      ServiceName: string;
      TTL: number;
      ExtraClaims: Record<string, string> | null;
    }>();
    expectTypeOf<Secret>().toEqualTypeOf<{ Name: string; Provider: string; Path: string; Config: Record<string, unknown> | null; Env: Record<string, string> | null }>();
    expectTypeOf<VolumeMount>().toEqualTypeOf<{ Volume: string; Destination: string; ReadOnly: boolean; PropagationMode: string; SELinuxLabel: string }>();
    expectTypeOf<TaskAction>().toEqualTypeOf<{ Name: string; Command: string; Args: string[] | null }>();
    expectTypeOf<TaskSchedule>().toEqualTypeOf<{ Cron: { Start: string; End: string; Timezone: string } | null }>();
  });

  it('default and read as before', () => {
    expect(JSON.stringify(defaultsOf(taskTables.LOG_CONFIG))).toBe(JSON.stringify({ MaxFiles: 10, MaxFileSizeMB: 10, Disabled: false }));
    expect(schemaOf(taskTables.VAULT).Policies).toBe('strings');
    expect(hclArgumentsOf(taskTables.VAULT).policies).toEqual({ json: 'Policies', type: 'strings' });
    expect(Object.keys(hclArgumentsOf(taskTables.TEMPLATE)).sort()).toEqual(
      ['source', 'destination', 'data', 'change_mode', 'change_signal', 'once', 'splay', 'perms', 'uid', 'gid', 'left_delimiter', 'right_delimiter', 'env', 'vault_grace', 'error_on_missing_key'].sort(),
    );
    expect(hclArgumentsOf(taskTables.TEMPLATE).env).toEqual({ json: 'Envvars', type: 'bool' });
    expect(Object.keys(hclArgumentsOf(taskTables.SECRET))).toEqual(['provider', 'path']);
  });
});

describe('group volumes and job blocks', () => {
  it('have the field types the scheduler reads', () => {
    expectTypeOf<VolumeRequest>().toEqualTypeOf<{
      Name: string;
      Type: string;
      Source: string;
      ReadOnly: boolean;
      Sticky: boolean;
      AccessMode: string;
      AttachmentMode: string;
      PerAlloc: boolean;
      MountOptions: { FSType: string; MountFlags: string[] | null } | null;
    }>();
    expectTypeOf<JobUI>().toEqualTypeOf<{ Description: string; Links: { Label: string; Url: string }[] | null }>();
    expectTypeOf<JobVersionTag>().toEqualTypeOf<{ Name: string; Description: string; TaggedTime: number }>();
  });

  it('give the job-file arguments they replaced', () => {
    expect(Object.keys(hclArgumentsOf(groupTables.VOLUME_REQUEST))).toEqual(['type', 'source', 'read_only', 'sticky', 'access_mode', 'attachment_mode', 'per_alloc']);
    expect(hclArgumentsOf(groupTables.MOUNT_OPTIONS)).toEqual({ fs_type: { json: 'FSType', type: 'string' }, mount_flags: { json: 'MountFlags', type: 'strings' } });
  });
});

describe('task', () => {
  it('has the field types the scheduler reads', () => {
    expectTypeOf<Task>().toEqualTypeOf<{
      Name: string;
      Driver: string;
      User: string;
      Config: Record<string, unknown> | null;
      Env: Record<string, string> | null;
      Services: Service[] | null;
      Vault: Vault | null;
      Consul: Record<string, unknown> | null;
      Templates: Template[] | null;
      Constraints: Constraint[] | null;
      Affinities: Affinity[] | null;
      Resources: Resources;
      RestartPolicy: RestartPolicy;
      DispatchPayload: DispatchPayloadConfig | null;
      Lifecycle: TaskLifecycle | null;
      Meta: Record<string, string> | null;
      KillTimeout: number;
      LogConfig: LogConfig;
      Artifacts: TaskArtifact[] | null;
      Leader: boolean;
      ShutdownDelay: number;
      VolumeMounts: VolumeMount[] | null;
      ScalingPolicies: Record<string, unknown>[] | null;
      KillSignal: string;
      Kind: string;
      CSIPluginConfig: Record<string, unknown> | null;
      Identity: WorkloadIdentity | null;
      Identities: WorkloadIdentity[] | null;
      Actions: TaskAction[] | null;
      Schedule: TaskSchedule | null;
      Secrets: Secret[] | null;
    }>();
  });

  it('takes free-form config as it evaluates in a job file', () => {
    expect(hclArgumentsOf(taskTables.TASK)).toEqual({
      driver: { json: 'Driver', type: 'string' },
      user: { json: 'User', type: 'string' },
      config: { json: 'Config', type: 'any' },
      env: { json: 'Env', type: 'stringMap' },
      meta: { json: 'Meta', type: 'stringMap' },
      kill_timeout: { json: 'KillTimeout', type: 'duration' },
      leader: { json: 'Leader', type: 'bool' },
      shutdown_delay: { json: 'ShutdownDelay', type: 'duration' },
      kill_signal: { json: 'KillSignal', type: 'string' },
      kind: { json: 'Kind', type: 'string' },
    });
    expect(schemaOf(taskTables.TASK).Config).toBe('object');
    expect(schemaOf(taskTables.TASK).ScalingPolicies).toBe('any');
  });
});

describe('task group', () => {
  it('has the field types the scheduler reads', () => {
    expectTypeOf<TaskGroup>().toEqualTypeOf<{
      Name: string;
      Count: number;
      Update: UpdateStrategy | null;
      Migrate: MigrateStrategy | null;
      Constraints: Constraint[] | null;
      Scaling: ScalingPolicy | null;
      RestartPolicy: RestartPolicy;
      Disconnect: DisconnectStrategy | null;
      Tasks: Task[];
      EphemeralDisk: EphemeralDisk;
      Meta: Record<string, string> | null;
      ReschedulePolicy: ReschedulePolicy | null;
      Affinities: Affinity[] | null;
      Spreads: Spread[] | null;
      Networks: NetworkResource[] | null;
      Consul: Record<string, unknown> | null;
      Services: Service[] | null;
      Volumes: Record<string, VolumeRequest> | null;
      ShutdownDelay: number | null;
      StopAfterClientDisconnect: number | null;
      MaxClientDisconnect: number | null;
      PreventRescheduleOnLost: boolean;
      MaxRunDuration: number | null;
    }>();
  });

  it('gives the input schema and the job-file arguments it replaced', () => {
    expect(Object.keys(schemaOf(groupTables.GROUP))).toEqual([
      'Name', 'Count', 'Update', 'Migrate', 'Constraints', 'Scaling', 'RestartPolicy', 'Disconnect', 'Tasks', 'EphemeralDisk', 'Meta',
      'ReschedulePolicy', 'Affinities', 'Spreads', 'Networks', 'Consul', 'Services', 'Volumes', 'ShutdownDelay', 'StopAfterClientDisconnect',
      'MaxClientDisconnect', 'PreventRescheduleOnLost', 'MaxRunDuration',
    ]);
    expect(schemaOf(groupTables.GROUP).Volumes).toEqual({
      map: {
        Name: 'string',
        Type: 'string',
        Source: 'string',
        ReadOnly: 'bool',
        Sticky: 'bool',
        AccessMode: 'string',
        AttachmentMode: 'string',
        PerAlloc: 'bool',
        MountOptions: { obj: { FSType: 'string', MountFlags: 'strings' } },
      },
    });
    expect(Object.keys(hclArgumentsOf(groupTables.GROUP)).sort()).toEqual(
      ['count', 'shutdown_delay', 'max_run_duration', 'stop_after_client_disconnect', 'max_client_disconnect', 'prevent_reschedule_on_lost', 'meta'].sort(),
    );
  });
});

describe('job', () => {
  it('has the field types the scheduler reads', () => {
    expectTypeOf<Job>().toEqualTypeOf<{
      Region: string;
      Namespace: string;
      ID: string;
      ParentID: string;
      Name: string;
      Type: string;
      Priority: number;
      AllAtOnce: boolean;
      Datacenters: string[];
      NodePool: string;
      Constraints: Constraint[] | null;
      Affinities: Affinity[] | null;
      Spreads: Spread[] | null;
      TaskGroups: TaskGroup[];
      Update: UpdateStrategy;
      Multiregion: Record<string, unknown> | null;
      Periodic: PeriodicConfig | null;
      ParameterizedJob: ParameterizedJobConfig | null;
      Dispatched: boolean;
      DispatchIdempotencyToken: string;
      Payload: string | null;
      Meta: Record<string, string> | null;
      ConsulNamespace: string;
      VaultNamespace: string;
      NomadTokenID: string;
      Status: string;
      StatusDescription: string;
      Stable: boolean;
      Version: number;
      SubmitTime: number;
      CreateIndex: number;
      ModifyIndex: number;
      JobModifyIndex: number;
      Stop: boolean;
      UI: JobUI | null;
      VersionTag: JobVersionTag | null;
    }>();
  });

  it('accepts the input-only fields without storing them', () => {
    expect(Object.keys(JOB_SCHEMA).slice(-4)).toEqual(['Reschedule', 'Migrate', 'VaultToken', 'ConsulToken']);
    expect(Object.keys(JOB_SCHEMA)).toHaveLength(40);
    const stored = defaultsOf(jobTables.JOB);
    for (const field of ['Reschedule', 'Migrate', 'VaultToken', 'ConsulToken']) expect(field in stored).toBe(false);
    expect(Object.keys(hclArgumentsOf(jobTables.JOB)).sort()).toEqual(
      ['region', 'namespace', 'id', 'name', 'type', 'priority', 'all_at_once', 'datacenters', 'node_pool', 'meta', 'vault_token', 'consul_token'].sort(),
    );
  });
});
