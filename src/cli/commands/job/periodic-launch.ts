/**
 * The next launch of a periodic job as `svc job run` and `svc job status` print it, as Nomad does:
 * the time in the job's time zone (RFC 3339) and how far off it is, as a Go duration.
 */
import { periodicNext } from '../../../scheduler/periodic/cron.js';
import type { PeriodicConfig } from '../../../scheduler/structs/policies.js';

const two = (n: number) => String(n).padStart(2, '0');

/** RFC 3339 of `d` on the wall clock of `timeZone`, with that zone's offset then. */
function rfc3339In(d: Date, timeZone: string): string {
  const parts = new Intl.DateTimeFormat('en-US', { timeZone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric' }).formatToParts(d);
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  const wall = Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'), get('second'));
  const offset = Math.round((wall - Math.floor(d.getTime() / 1000) * 1000) / 60_000);
  const zone = offset === 0 ? 'Z' : `${offset > 0 ? '+' : '-'}${two(Math.floor(Math.abs(offset) / 60))}:${two(Math.abs(offset) % 60)}`;
  return `${get('year')}-${two(get('month'))}-${two(get('day'))}T${two(get('hour'))}:${two(get('minute'))}:${two(get('second'))}${zone}`;
}

/** Go's Duration.String() of whole seconds: `45s`, `3m0s`, `26h4m5s`. */
export function goDuration(seconds: number): string {
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  if (h > 0) return `${h}h${m}m${s}s`;
  if (m > 0) return `${m}m${s}s`;
  return `${s}s`;
}

/** The periodic block as the API or a job file gives it, with the server's defaults for what is unset. */
function periodicOf(raw: Partial<PeriodicConfig>): PeriodicConfig {
  return {
    Enabled: raw.Enabled ?? true,
    Spec: raw.Spec ?? '',
    Specs: raw.Specs ?? [],
    SpecType: raw.SpecType || 'cron',
    ProhibitOverlap: raw.ProhibitOverlap ?? false,
    TimeZone: raw.TimeZone || 'UTC',
  };
}

/** `<time> (<duration> from now)`; undefined when the specs name no time to come or cannot be read. */
export function nextLaunchText(raw: Partial<PeriodicConfig>, nowMs: number): string | undefined {
  const periodic = periodicOf(raw);
  let next: Date | undefined;
  try {
    next = periodicNext(periodic, new Date(nowMs));
  } catch {
    return undefined;
  }
  if (!next) return undefined;
  const seconds = Math.floor(next.getTime() / 1000) - Math.floor(nowMs / 1000);
  return `${rfc3339In(next, periodic.TimeZone)} (${goDuration(seconds)} from now)`;
}
