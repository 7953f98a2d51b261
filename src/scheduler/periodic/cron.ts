/**
 * Cron specs as Nomad reads them (hashicorp/cronexpr), evaluated by croner. cronexpr's field counts
 * differ from croner's: 5 fields are `min hour dom mon dow`, 6 add a trailing YEAR (croner would read a
 * leading second), 7 are `sec min hour dom mon dow year`. Every spec is rewritten to croner's 7-field
 * form, so croner never has to guess which layout it was given.
 *
 * Daylight-saving changes (croner follows Vixie cron): a fixed time that occurs twice runs at its first
 * occurrence only, a fixed time inside a skipped hour runs at the end of the gap that day; interval
 * specs run at every instant that exists. Next times never go backwards, so no instant launches twice.
 */
import { Cron } from 'croner';
import { LruCache } from '../../shared/lru-cache.js';
import type { PeriodicConfig } from '../structs/policies.js';
import type { Job } from '../structs/job.js';

/** cronexpr's predefined schedules, in 7-field form. */
const MACROS: Record<string, string> = {
  '@yearly': '0 0 0 1 1 * *',
  '@annually': '0 0 0 1 1 * *',
  '@monthly': '0 0 0 1 * * *',
  '@weekly': '0 0 0 * * 0 *',
  '@daily': '0 0 0 * * * *',
  '@midnight': '0 0 0 * * * *',
  '@hourly': '0 0 * * * * *',
};

/** The spec in croner's 7-field layout; throws with cronexpr's count message on a bad field count. */
function sevenFields(spec: string): string {
  const text = spec.trim();
  if (text.startsWith('@')) {
    const macro = MACROS[text.toLowerCase()];
    if (!macro) throw new Error(`unknown descriptor "${text}"`);
    return macro;
  }
  const fields = text.split(/\s+/);
  if (fields.length === 5) return `0 ${fields.join(' ')} *`;
  if (fields.length === 6) return `0 ${fields.join(' ')}`;
  if (fields.length === 7) return fields.join(' ');
  throw new Error(`expected 5 to 7 fields, found ${text === '' ? 0 : fields.length}`);
}

/** Compiled specs by time zone and spec; bounded, since specs come from job files. */
const compiled = new LruCache<string, Cron>(1000);

function cronFor(spec: string, timeZone: string): Cron {
  const key = `${timeZone}\u0000${spec}`;
  let cron = compiled.get(key);
  if (!cron) {
    cron = new Cron(sevenFields(spec), {
      timezone: timeZone || 'UTC',
      mode: '7-part',
      paused: true,
      // cronexpr reads `5/15` as "from 5, every 15"
      sloppyRanges: true,
      // Vixie cron's notion of a fixed-time job: no wildcard or step in seconds, minutes and hours
      fixedTimeRule: 'no-wildcard',
    });
    compiled.set(key, cron);
  }
  return cron;
}

/** Why the spec cannot be read, or undefined when it can. */
export function cronProblem(spec: string): string | undefined {
  try {
    cronFor(spec, 'UTC');
    return undefined;
  } catch (err) {
    return (err as Error).message.replace(/^CronPattern: /, '');
  }
}

/** The first instant strictly after `from` that the spec names in the time zone; undefined if none (a past year). */
export function cronNext(spec: string, timeZone: string, from: Date): Date | undefined {
  return cronFor(spec, timeZone).nextRun(from) ?? undefined;
}

/** The specs a periodic block launches on: `cron` (deprecated) or `crons`. */
export function periodicSpecs(p: PeriodicConfig): string[] {
  return p.Spec !== '' ? [p.Spec] : p.Specs;
}

/** The earliest next time of any of the block's specs, after `from`. */
export function periodicNext(p: PeriodicConfig, from: Date): Date | undefined {
  let next: Date | undefined;
  for (const spec of periodicSpecs(p)) {
    const t = cronNext(spec, p.TimeZone, from);
    if (t && (!next || t < next)) next = t;
  }
  return next;
}

/**
 * Whether the periodic launcher launches children of the job (Nomad's IsPeriodicActive): enabled,
 * not stopped, and not a parameterized parent, whose dispatched children are what launch.
 */
export function isPeriodicActive(job: Pick<Job, 'Periodic' | 'Stop' | 'ParameterizedJob' | 'Dispatched'>): boolean {
  return job.Periodic !== null && job.Periodic.Enabled && !job.Stop && !(job.ParameterizedJob !== null && !job.Dispatched);
}

/** When the job launches next after `now`; undefined when it does not launch (not periodic, disabled, stopped). */
export function nextPeriodicLaunch(job: Pick<Job, 'Periodic' | 'Stop' | 'ParameterizedJob' | 'Dispatched'>, now: Date): Date | undefined {
  if (!isPeriodicActive(job)) return undefined;
  return periodicNext(job.Periodic!, now);
}
