/**
 * Periodic launches in the state store: a launch writes the child job `<parent>/periodic-<unix seconds>`,
 * its evaluation and the parent's last launch time in one transaction. The child's ID comes from the
 * scheduled instant, so an instant launches at most once, whichever process or restart tries again.
 */
import { NotFound, UserError } from '../../shared/errors.js';
import type { Store } from '../../storage/store.js';
import type { Job } from '../structs/job.js';
import type { Evaluation } from '../structs/evaluation.js';
import { isPeriodicActive } from '../periodic/cron.js';
import { deriveChild, hasRunningChildren, insertChildJob } from './children.js';
import { evaluateJob } from './evals.js';
import { JOBS_TABLE, jobKey } from './tables.js';
import { WriteKind } from '../events/kinds.js';

/** Each periodic job's last launch (Nomad's periodic_launch table). */
export const PERIODIC_LAUNCH_TABLE = 'periodic-launch';

export interface PeriodicLaunch {
  ID: string;
  Namespace: string;
  /** Unix ms */
  Launch: number;
}

export const PERIODIC_SUFFIX = '/periodic-';

export function periodicChildId(parentId: string, at: Date): string {
  return `${parentId}${PERIODIC_SUFFIX}${Math.floor(at.getTime() / 1000)}`;
}

export function lastLaunch(store: Store, namespace: string, id: string): number | undefined {
  return store.get<PeriodicLaunch>(PERIODIC_LAUNCH_TABLE, jobKey(namespace, id))?.Launch;
}

/**
 * - `scheduled`: the launcher's launch of an instant; skipped while a child runs under prohibit_overlap,
 *   and when the instant's child exists already;
 * - `catch-up`: the one launch of launches missed while no server ran, at start (also skipped while
 *   a child runs under prohibit_overlap, as Nomad's restore does);
 * - `force`: `periodic/force`, which ignores prohibit_overlap and answers with errors.
 */
export type LaunchKind = 'scheduled' | 'catch-up' | 'force';

export interface LaunchResult {
  /** the child launched (or, for a forced launch in the same second as another, evaluated again) */
  child?: Job;
  evaluation?: Evaluation;
  /** why nothing was launched */
  skipped?: 'inactive' | 'overlap' | 'exists';
}

export async function launchPeriodic(store: Store, namespace: string, id: string, at: Date, kind: LaunchKind): Promise<{ result: LaunchResult; index: number }> {
  return store.write((tx): LaunchResult => {
    tx.describe(WriteKind.JobRegister);
    const parent = tx.get<Job>(JOBS_TABLE, jobKey(namespace, id));
    if (kind === 'force') {
      if (!parent) throw new NotFound('job not found');
      if (parent.Periodic === null) throw new UserError("can't force launch non-periodic job");
      if (!isPeriodicActive(parent)) throw new UserError(`can't force run non-tracked job ${id} (${namespace}): it is stopped, disabled, or a parameterized job whose dispatched instances launch`);
    } else if (!parent || !isPeriodicActive(parent)) {
      return { skipped: 'inactive' };
    }
    if (kind !== 'force' && parent.Periodic!.ProhibitOverlap && hasRunningChildren(tx, parent)) return { skipped: 'overlap' };
    const childId = periodicChildId(parent.ID, at);
    const existing = tx.get<Job>(JOBS_TABLE, jobKey(namespace, childId));
    if (existing) {
      if (kind !== 'force') return { skipped: 'exists' };
      // Nomad registers the same child again when forced twice within a second; it is evaluated again.
      return { child: existing, evaluation: evaluateJob(tx, existing, 'periodic-job') };
    }
    const child = deriveChild(parent, childId);
    child.Periodic = null;
    const evaluation = insertChildJob(tx, child, 'periodic-job', Date.now());
    const launch: PeriodicLaunch = { ID: parent.ID, Namespace: namespace, Launch: at.getTime() };
    tx.put(PERIODIC_LAUNCH_TABLE, jobKey(namespace, parent.ID), launch);
    return { child, evaluation };
  });
}
