/**
 * Dispatching a parameterized job: the child `<parent>/dispatch-[<template>-]<unix>-<8 hex>` with the
 * payload and merged meta, and its evaluation, written in one transaction. The idempotency token is
 * checked inside that transaction, so concurrent dispatches with one token make one child.
 */
import { randomUUID } from 'node:crypto';
import { NotFound, UserError } from '../../shared/errors.js';
import type { Store } from '../../storage/store.js';
import { JOB_MAX_PRIORITY, JOB_MIN_PRIORITY, type Job } from '../structs/job.js';
import { childrenOf, deriveChild, insertChildJob } from './children.js';
import { JOBS_TABLE, jobKey } from './tables.js';
import { WriteKind } from '../events/kinds.js';

/** Nomad's DispatchPayloadSizeLimit: 16 KiB, decoded. */
export const DISPATCH_PAYLOAD_LIMIT = 16 * 1024;

export const DISPATCH_SUFFIX = '/dispatch-';

export interface DispatchRequest {
  payload: Buffer;
  meta: Record<string, string>;
  idPrefixTemplate: string;
  /** 0 = the parent's */
  priority: number;
  idempotencyToken: string;
}

export interface DispatchResult {
  child: Job;
  evalId: string;
  evalCreateIndex: number;
  /** false when the token named a child that already exists and is not dead */
  created: boolean;
}

export function dispatchedId(parentId: string, template: string, nowMs: number): string {
  const suffix = randomUUID().slice(0, 8);
  const seconds = Math.floor(nowMs / 1000);
  return template !== '' ? `${parentId}${DISPATCH_SUFFIX}${template}-${seconds}-${suffix}` : `${parentId}${DISPATCH_SUFFIX}${seconds}-${suffix}`;
}

/** The request against the parent's parameterized block (Nomad's validateDispatchRequest, its messages). */
function checkRequest(parent: Job, req: DispatchRequest): void {
  const p = parent.ParameterizedJob!;
  const hasPayload = req.payload.length > 0;
  if (p.Payload === 'required' && !hasPayload) throw new UserError('Payload is not provided but required by parameterized job');
  if (p.Payload === 'forbidden' && hasPayload) throw new UserError('Payload provided but forbidden by parameterized job');
  if (req.payload.length > DISPATCH_PAYLOAD_LIMIT) throw new UserError(`Payload exceeds maximum size; ${req.payload.length} > ${DISPATCH_PAYLOAD_LIMIT}`);
  const allowed = new Set([...(p.MetaRequired ?? []), ...(p.MetaOptional ?? [])]);
  const unpermitted = Object.keys(req.meta).filter((k) => !allowed.has(k)).sort();
  if (unpermitted.length > 0) throw new UserError(`Dispatch request included unpermitted metadata keys: [${unpermitted.join(' ')}]`);
  const missing = (p.MetaRequired ?? []).filter((k) => !(k in req.meta));
  if (missing.length > 0) throw new UserError(`Dispatch did not provide required meta keys: [${missing.join(' ')}]`);
  if (req.priority !== 0 && (req.priority < JOB_MIN_PRIORITY || req.priority > JOB_MAX_PRIORITY)) {
    throw new UserError(`job priority must be between [${JOB_MIN_PRIORITY}, ${JOB_MAX_PRIORITY}]`);
  }
}

export async function dispatchJob(store: Store, namespace: string, parentId: string, req: DispatchRequest): Promise<{ result: DispatchResult; index: number }> {
  return store.write((tx): DispatchResult => {
    tx.describe(WriteKind.JobRegister);
    const parent = tx.get<Job>(JOBS_TABLE, jobKey(namespace, parentId));
    if (!parent) throw new NotFound('job not found');
    if (parent.ParameterizedJob === null || parent.Dispatched) throw new UserError(`Specified job "${parentId}" is not a parameterized job`);
    if (parent.Stop) throw new UserError(`Specified job "${parentId}" is stopped`);
    checkRequest(parent, req);
    if (req.idempotencyToken !== '') {
      // A stopped child counts as finished at once, not only once its status has caught up.
      const existing = childrenOf(tx, parent, DISPATCH_SUFFIX).find((c) => c.Status !== 'dead' && !c.Stop && c.DispatchIdempotencyToken === req.idempotencyToken);
      if (existing) return { child: existing, evalId: '', evalCreateIndex: 0, created: false };
    }
    const now = Date.now();
    const child = deriveChild(parent, dispatchedId(parent.ID, req.idPrefixTemplate, now));
    child.Dispatched = true;
    child.DispatchIdempotencyToken = req.idempotencyToken;
    child.Payload = req.payload.length > 0 ? req.payload.toString('base64') : null;
    if (Object.keys(req.meta).length > 0) child.Meta = { ...(parent.Meta ?? {}), ...req.meta };
    if (req.priority !== 0) child.Priority = req.priority;
    const evaluation = insertChildJob(tx, child, 'job-register', now);
    return { child, evalId: evaluation?.ID ?? '', evalCreateIndex: evaluation?.CreateIndex ?? 0, created: true };
  });
}
