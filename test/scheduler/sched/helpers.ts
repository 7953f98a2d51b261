/** Builders for scheduler tests: nodes, jobs, evaluations, and a stand-in for the plan applier. */
import { arrayState, schedulerFor, type ArrayData } from '../../../src/scheduler/sched/index.js';
import type { SchedulerResult } from '../../../src/scheduler/sched/types.js';
import type { Allocation } from '../../../src/scheduler/structs/allocation.js';
import { newEvaluation, type Evaluation } from '../../../src/scheduler/structs/evaluation.js';
import { canonicalizeJob, type Job } from '../../../src/scheduler/structs/index.js';
import type { Node } from '../../../src/scheduler/structs/node.js';

export const SEC = 1_000_000_000;

export interface NodeOptions {
  cpu?: number;
  memoryMB?: number;
  diskMB?: number;
  datacenter?: string;
  pool?: string;
  cls?: string;
  attributes?: Record<string, string>;
  meta?: Record<string, string>;
  drivers?: string[];
  status?: Node['Status'];
  minPort?: number;
  maxPort?: number;
}

export function makeNode(name: string, o: NodeOptions = {}): Node {
  const drivers = Object.fromEntries(
    (o.drivers ?? ['mock']).map((d) => [d, { Attributes: null, Detected: true, Healthy: true, HealthDescription: '', UpdateTime: '' }]),
  );
  return {
    ID: `id-${name}`,
    Name: name,
    Datacenter: o.datacenter ?? 'dc1',
    NodePool: o.pool ?? 'default',
    NodeClass: o.cls ?? '',
    ComputedClass: '',
    HTTPAddr: '127.0.0.1:4646',
    TLSEnabled: false,
    Attributes: { 'kernel.name': 'linux', 'unique.hostname': name, ...o.attributes },
    Meta: o.meta ?? {},
    Links: null,
    NodeResources: {
      Cpu: { CpuShares: o.cpu ?? 4000, TotalCpuCores: 4, ReservableCpuCores: null },
      Memory: { MemoryMB: o.memoryMB ?? 8192 },
      Disk: { DiskMB: o.diskMB ?? 100_000 },
      Networks: [{ Mode: 'host', Device: 'eth0', CIDR: '10.0.0.1/32', IP: '10.0.0.1' }],
      MinDynamicPort: o.minPort ?? 20000,
      MaxDynamicPort: o.maxPort ?? 32000,
    },
    ReservedResources: { Cpu: { CpuShares: 0 }, Memory: { MemoryMB: 0 }, Disk: { DiskMB: 0 }, Networks: { ReservedHostPorts: '' } },
    Drivers: drivers,
    HostVolumes: null,
    Status: o.status ?? 'ready',
    StatusDescription: '',
    StatusUpdatedAt: 0,
    SchedulingEligibility: 'eligible',
    DrainStrategy: null,
    LastDrain: null,
    Events: null,
    CreateIndex: 1,
    ModifyIndex: 1,
  };
}

export function makeNodes(n: number, o: NodeOptions = {}): Node[] {
  return Array.from({ length: n }, (_, i) => makeNode(`n${i}`, o));
}

/** A job as the store would hold it: canonical, at `version`, registered at index 10 + version. */
export function makeJob(input: Record<string, unknown>, version = 0): Job {
  const job = canonicalizeJob({ ID: 'web', ...input });
  job.Version = version;
  job.CreateIndex = 10;
  job.JobModifyIndex = 10 + version;
  job.ModifyIndex = 10 + version;
  return job;
}

export function simpleJob(count: number, extra: Record<string, unknown> = {}, task: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    ...extra,
    TaskGroups: [{ Name: 'g', Count: count, Tasks: [{ Name: 't', Driver: 'mock', Resources: { CPU: 100, MemoryMB: 64 }, ...task }] }],
  };
}

export function evalFor(job: Job, extra: Partial<Evaluation> = {}): Evaluation {
  return newEvaluation({
    namespace: job.Namespace,
    jobId: job.ID,
    jobType: job.Type,
    priority: job.Priority,
    triggeredBy: 'job-register',
    jobModifyIndex: job.JobModifyIndex,
    index: 100,
    extra,
  });
}

/** Runs an evaluation of `job` with `job` as the stored version. */
export async function schedule(data: ArrayData, job: Job, extra: Partial<Evaluation> = {}): Promise<SchedulerResult> {
  const jobs = [...data.jobs.filter((j) => j.ID !== job.ID || j.Namespace !== job.Namespace), job];
  return schedulerFor(job.Type)(evalFor(job, extra), arrayState({ ...data, jobs }));
}

let index = 1000;

/** What the plan applier does with a result, enough for the next evaluation to see it. */
export function applyPlan(data: ArrayData, result: SchedulerResult): void {
  const byId = new Map(data.allocs.map((a) => [a.ID, a]));
  const now = Date.now() * 1_000_000;
  for (const u of result.plan.Updates) Object.assign(byId.get(u.ID)!, u);
  for (const a of result.plan.InPlace) Object.assign(byId.get(a.ID)!, a);
  for (const a of result.plan.Place) {
    index++;
    data.allocs.push({ ...a, CreateIndex: index, ModifyIndex: index, AllocModifyIndex: index, CreateTime: now, ModifyTime: now });
    if (a.PreviousAllocation) byId.get(a.PreviousAllocation)!.NextAllocation = a.ID;
  }
  const d = result.plan.Deployment;
  if (d) {
    index++;
    const stored = { ...d, CreateIndex: d.CreateIndex || index, ModifyIndex: index };
    data.deployments = [...(data.deployments ?? []).filter((x) => x.ID !== d.ID), stored];
  }
}

/** Runs the evaluation and applies its plan, as the worker and applier would; the store keeps the version. */
export async function scheduleAndApply(data: ArrayData, job: Job, extra: Partial<Evaluation> = {}): Promise<SchedulerResult> {
  const result = await schedule(data, job, extra);
  applyPlan(data, result);
  data.jobs = [...data.jobs.filter((j) => j.ID !== job.ID), job];
  data.jobVersions = [...(data.jobVersions ?? []).filter((j) => j.ID !== job.ID || j.Version !== job.Version), job];
  return result;
}

export function live(data: ArrayData): Allocation[] {
  return data.allocs.filter((a) => a.DesiredStatus === 'run' && !['complete', 'failed', 'lost'].includes(a.ClientStatus));
}

export function names(allocs: { Name: string }[]): string[] {
  return allocs.map((a) => a.Name).sort();
}
