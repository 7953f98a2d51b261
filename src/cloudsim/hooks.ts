/**
 * The test hooks: injected failures, raw answers, delays and page sizes. They are queued on the state
 * and used up by the calls they match, always after the call's signature was verified.
 */
import type { QueuedHook, SimState } from './state.js';

export interface FailureSpec {
  status?: number;
  code?: string;
  message?: string;
  /** How many consecutive matching calls fail (default 1). */
  times?: number;
}

/** A raw answer for respondNext: sent as is, after the call was authenticated. */
export interface CannedAnswer {
  status?: number;
  body: string;
  contentType?: string;
  /** How many consecutive matching calls get this answer (default 1). */
  times?: number;
}

export function failNext(s: SimState, action: string, spec: FailureSpec = {}): void {
  const byCode: Record<string, number> = { Throttling: 400, RequestLimitExceeded: 503, InternalFailure: 500, InternalError: 500, ServiceUnavailable: 503 };
  const byStatus: Record<number, string> = { 400: 'Throttling', 429: 'Throttling', 500: 'InternalFailure', 503: 'ServiceUnavailable' };
  const status = spec.status ?? (spec.code ? (byCode[spec.code] ?? 400) : 503);
  const code = spec.code ?? byStatus[status] ?? 'InternalFailure';
  s.failures.push({ action, status, code, message: spec.message ?? (code === 'Throttling' ? 'Rate exceeded' : `Injected failure ${code}`), left: spec.times ?? 1 });
}

export function respondNext(s: SimState, action: string, a: CannedAnswer): void {
  s.canned.push({ action, status: a.status ?? 200, body: a.body, contentType: a.contentType ?? 'text/xml', left: a.times ?? 1 });
}

export function delayNext(s: SimState, action: string, ms: number, times = 1): void {
  s.delays.push({ action, ms, left: times });
}

export function setPageSize(s: SimState, n: number | undefined): void {
  if (n !== undefined && (!Number.isInteger(n) || n < 1)) throw new Error(`cloudsim: page size must be a positive integer: ${n}`);
  s.pageSize = n;
}

/** The first hook queued for `action` ('*' matches any), used up once; undefined when none is. */
export function take<T extends QueuedHook>(queue: T[], action: string): T | undefined {
  const i = queue.findIndex((h) => h.left > 0 && (h.action === action || h.action === '*'));
  if (i < 0) return undefined;
  const h = queue[i];
  if (--h.left <= 0) queue.splice(i, 1);
  return h;
}
