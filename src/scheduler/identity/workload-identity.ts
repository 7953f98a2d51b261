/**
 * A task's default workload identity as Nomad signs it: a JWT (RS256, `kid` the signing key's ID) whose
 * claims name the namespace, job, allocation and task, with Nomad's subject
 * `<region>:<namespace>:<job>:<group>:<task>:<identity>`, the identity's audience, and an expiry only
 * when the identity has a `ttl` (without one it never expires, as Nomad's). A dispatched or periodic
 * child is named by its parent job, as Nomad's GetIDforWorkloadIdentity does.
 */
import { randomUUID, sign } from 'node:crypto';
import type { Allocation } from '../structs/allocation.js';
import type { Job } from '../structs/job.js';
import type { Task } from '../structs/task.js';
import { NS } from '../wire/job/fields.js';
import type { SigningKey } from './signing-key.js';

/** Nomad's name for the identity every task has. */
const DEFAULT_IDENTITY_NAME = 'default';

export interface WorkloadIdentityClaims {
  nomad_namespace: string;
  nomad_job_id: string;
  nomad_allocation_id: string;
  nomad_task: string;
  sub: string;
  aud: string[];
  iat: number;
  nbf: number;
  exp?: number;
  jti: string;
}

export function identityClaims(job: Job, alloc: Allocation, task: Task, now: Date): WorkloadIdentityClaims {
  const identity = task.Identity;
  const jobId = job.ParentID !== '' ? job.ParentID : job.ID;
  const name = identity?.Name || DEFAULT_IDENTITY_NAME;
  const seconds = Math.floor(now.getTime() / 1000);
  const ttlSeconds = Math.floor((identity?.TTL ?? 0) / NS.second);
  return {
    nomad_namespace: alloc.Namespace,
    nomad_job_id: jobId,
    nomad_allocation_id: alloc.ID,
    nomad_task: task.Name,
    sub: [job.Region, alloc.Namespace, jobId, alloc.TaskGroup, task.Name, name].join(':'),
    aud: [...(identity?.Audience ?? [])],
    iat: seconds,
    nbf: seconds,
    ...(ttlSeconds > 0 ? { exp: seconds + ttlSeconds } : {}),
    jti: randomUUID(),
  };
}

const base64url = (data: string | Buffer) => Buffer.from(data).toString('base64url');

/** The compact JWS of `claims`, signed with the key (RSASSA-PKCS1-v1_5 with SHA-256: RS256). */
export function signJwt(claims: WorkloadIdentityClaims, key: SigningKey): string {
  const header = { alg: key.algorithm, kid: key.keyId, typ: 'JWT' };
  const input = `${base64url(JSON.stringify(header))}.${base64url(JSON.stringify(claims))}`;
  return `${input}.${base64url(sign('sha256', Buffer.from(input), key.privateKey))}`;
}
