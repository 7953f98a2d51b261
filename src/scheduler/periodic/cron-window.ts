/**
 * A task's `schedule { cron { start, end, timezone } }` as Nomad reads it: `start` is a 6-field cron
 * spec (`minute hour day-of-month month day-of-week year`), `end` a `minute hour` pair, both without `,`
 * or `/`; the task may run from a start until the first `end` time after it, which must fall on the same
 * day (for an overnight window, pick a time zone in which it does not cross midnight). `timezone` is an
 * IANA name; empty (or `Local`) is the node's own zone. Pure: the time comes in as an argument.
 *
 * Beside the cron parser because both job validation (the spec is checked at submission) and the node
 * (which opens and closes the window) read it.
 */
import { cronNext, cronProblem } from './cron.js';
import type { TaskSchedule } from '../structs/task.js';

export type CronWindow = NonNullable<TaskSchedule['Cron']>;

const START_FIELDS = 6;
const END_FIELDS = 2;
const RESTRICTED = /[,/]/;
/**
 * How far back the latest start is looked for: a window ends on the day it starts, and no day is longer
 * than 25 hours (a daylight-saving change), so a start further back has ended.
 */
const LOOKBACK_MS = 26 * 3_600_000;

/** The node's own time zone, as Go's `Local`. */
function localZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone;
}

/** The IANA zone the window is read in. */
export function windowZone(cron: CronWindow): string {
  return cron.Timezone === '' || cron.Timezone === 'Local' ? localZone() : cron.Timezone;
}

function knownZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** `*`, `N` or `A-B` within [lo, hi], as the span it allows; undefined when it is none of those. */
function span(field: string, lo: number, hi: number): [number, number] | undefined {
  if (field === '*') return [lo, hi];
  const m = /^(\d+)(?:-(\d+))?$/.exec(field);
  if (!m) return undefined;
  const from = Number(m[1]);
  const to = m[2] === undefined ? from : Number(m[2]);
  return from >= lo && to <= hi && from <= to ? [from, to] : undefined;
}

/** The latest minute of the day a `minute hour …` spec names, or undefined when its fields are not plain. */
function latestMinuteOfDay(minute: string, hour: string): number | undefined {
  const m = span(minute, 0, 59);
  const h = span(hour, 0, 23);
  return m && h ? h[1] * 60 + m[1] : undefined;
}

/** Every problem with the schedule, each naming its field; empty when it is valid. */
export function scheduleProblems(schedule: TaskSchedule): string[] {
  const cron = schedule.Cron;
  if (!cron) return ['must specify cron block'];
  const errs: string[] = [];
  const start = cron.Start.trim().split(/\s+/).filter((f) => f !== '');
  const end = cron.End.trim().split(/\s+/).filter((f) => f !== '');
  if (start.length !== START_FIELDS) errs.push(`cron.start must contain ${START_FIELDS} fields (minute hour day-of-month month day-of-week year), got ${JSON.stringify(cron.Start)}`);
  else if (RESTRICTED.test(cron.Start)) errs.push(`cron.start must not contain "," or "/", got ${JSON.stringify(cron.Start)}`);
  else {
    const problem = cronProblem(start.join(' '));
    if (problem) errs.push(`cron.start ${JSON.stringify(cron.Start)} is not a valid cron expression: ${problem}`);
  }
  if (end.length !== END_FIELDS) errs.push(`cron.end must contain ${END_FIELDS} fields (minute hour), got ${JSON.stringify(cron.End)}`);
  else if (RESTRICTED.test(cron.End)) errs.push(`cron.end must not contain "," or "/", got ${JSON.stringify(cron.End)}`);
  else if (latestMinuteOfDay(end[0], end[1]) === undefined) {
    errs.push(`cron.end must be a minute (0-59) and an hour (0-23), each a number, a range A-B or *, got ${JSON.stringify(cron.End)}`);
  }
  if (errs.length === 0) {
    // Windows end on the day they start: the day's last start needs an end after it.
    const lastStart = latestMinuteOfDay(start[0], start[1]);
    const lastEnd = latestMinuteOfDay(end[0], end[1])!;
    if (lastStart !== undefined && lastEnd <= lastStart) {
      errs.push(`cron.end ${JSON.stringify(cron.End)} must come after cron.start ${JSON.stringify(cron.Start)} on the same day (a window cannot cross midnight; use another timezone for that)`);
    }
  }
  if (cron.Timezone !== '' && cron.Timezone !== 'Local' && !knownZone(cron.Timezone)) errs.push(`cron.timezone: unknown time zone ${JSON.stringify(cron.Timezone)}`);
  return errs;
}

export interface WindowAt {
  /** the task may run now */
  open: boolean;
  /** when `open` next changes: the window's end, or the next start; undefined when no start comes again (a past year) */
  until: Date | undefined;
}

/** Whether `now` is inside a window of the schedule, and until when. */
export function windowAt(cron: CronWindow, now: Date): WindowAt {
  const zone = windowZone(cron);
  const startSpec = cron.Start.trim().split(/\s+/).join(' ');
  const endSpec = `${cron.End.trim().split(/\s+/).join(' ')} * * * *`;
  let latest: Date | undefined;
  for (let t = cronNext(startSpec, zone, new Date(now.getTime() - LOOKBACK_MS)); t && t <= now; t = cronNext(startSpec, zone, t)) latest = t;
  if (latest) {
    const end = cronNext(endSpec, zone, latest);
    if (end && end > now) return { open: true, until: end };
  }
  return { open: false, until: cronNext(startSpec, zone, now) };
}
