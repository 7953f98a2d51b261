/**
 * Nomad's rule for a job's `vault` blocks: whoever submits the job must hold every policy they name (or
 * be root), since each task is given a token with those policies and could otherwise do what its
 * submitter may not.
 */
import { PermissionDenied } from '../../shared/errors.js';
import type { TokenCaller } from '../../secrets/token/caller.js';
import type { Job } from '../structs/job.js';

/** Every policy the job's tasks' tokens would carry, sorted and without repeats. */
function jobVaultPolicies(job: Job): string[] {
  const names = new Set<string>();
  for (const group of job.TaskGroups ?? []) {
    for (const task of group.Tasks ?? []) for (const p of task.Vault?.Policies ?? []) names.add(p);
  }
  return [...names].sort();
}

/** Refuses the job when the caller's token lacks one of those policies, naming the ones it lacks. */
export function checkVaultPolicies(caller: TokenCaller, job: Job): void {
  if (caller.acl.root) return;
  const held = new Set([...caller.token.policies, ...caller.acl.policyNames]);
  const missing = jobVaultPolicies(job).filter((p) => !held.has(p));
  if (missing.length > 0) throw new PermissionDenied(`Vault token doesn't allow access to the following policies: ${missing.join(', ')}`);
}
