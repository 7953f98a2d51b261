import { describe, expect, it } from 'vitest';
import { cronNext, cronProblem, nextPeriodicLaunch, periodicNext } from '../../../src/scheduler/periodic/cron.js';
import { canonicalizeJob } from '../../../src/scheduler/structs/index.js';
import type { PeriodicConfig } from '../../../src/scheduler/structs/policies.js';

const next = (spec: string, from: string, tz = 'UTC') => cronNext(spec, tz, new Date(from))?.toISOString();
const runs = (spec: string, from: string, tz: string, n: number) => {
  const out: string[] = [];
  let t = new Date(from);
  for (let i = 0; i < n; i++) {
    t = cronNext(spec, tz, t)!;
    out.push(t.toISOString());
  }
  return out;
};

describe('cron grammar (hashicorp/cronexpr)', () => {
  // 2024-01-01 is a Monday.
  it.each([
    ['5 fields: every 15 minutes', '*/15 * * * *', '2024-01-01T00:07:00Z', '2024-01-01T00:15:00.000Z'],
    ['5 fields: a fixed time', '30 4 * * *', '2024-01-01T05:00:00Z', '2024-01-02T04:30:00.000Z'],
    ['6 fields: the 6th is the YEAR, not seconds', '*/15 * * * * *', '2024-01-01T00:07:00Z', '2024-01-01T00:15:00.000Z'],
    ['6 fields: a year in the future', '0 0 1 1 * 2030', '2024-01-01T00:00:00Z', '2030-01-01T00:00:00.000Z'],
    ['6 fields: a year range', '0 12 * * * 2026-2027', '2024-06-01T00:00:00Z', '2026-01-01T12:00:00.000Z'],
    ['7 fields: leading seconds, trailing year', '*/10 * * * * * *', '2024-01-01T00:00:01Z', '2024-01-01T00:00:10.000Z'],
    ['7 fields: a fixed second', '30 0 9 * * * 2024', '2024-01-01T00:00:00Z', '2024-01-01T09:00:30.000Z'],
    ['@hourly', '@hourly', '2024-01-01T00:30:00Z', '2024-01-01T01:00:00.000Z'],
    ['@daily', '@daily', '2024-01-01T00:30:00Z', '2024-01-02T00:00:00.000Z'],
    ['@weekly (Sunday midnight)', '@weekly', '2024-01-01T00:30:00Z', '2024-01-07T00:00:00.000Z'],
    ['@monthly', '@monthly', '2024-01-01T00:30:00Z', '2024-02-01T00:00:00.000Z'],
    ['@yearly', '@yearly', '2024-01-01T00:30:00Z', '2025-01-01T00:00:00.000Z'],
    ['@annually', '@annually', '2024-01-01T00:30:00Z', '2025-01-01T00:00:00.000Z'],
    ['month and day names', '0 9 * FEB MON-FRI', '2024-01-01T00:00:00Z', '2024-02-01T09:00:00.000Z'],
    ['lists and ranges', '0 8,20 10-12 * *', '2024-01-01T00:00:00Z', '2024-01-10T08:00:00.000Z'],
    ['a step from a start', '5/20 * * * *', '2024-01-01T00:06:00Z', '2024-01-01T00:25:00.000Z'],
    ['a range with a step', '0 1-10/3 * * *', '2024-01-01T02:00:00Z', '2024-01-01T04:00:00.000Z'],
    ['L: the last day of the month', '0 0 L * *', '2024-02-01T00:00:00Z', '2024-02-29T00:00:00.000Z'],
    ['W: the weekday nearest the 15th (a Saturday in June 2024)', '0 0 15W * *', '2024-06-01T00:00:00Z', '2024-06-14T00:00:00.000Z'],
    ['LW: the last weekday of the month', '0 0 LW * *', '2024-08-01T00:00:00Z', '2024-08-30T00:00:00.000Z'],
    ['5L: the last Friday', '0 0 * * 5L', '2024-01-01T00:00:00Z', '2024-01-26T00:00:00.000Z'],
    ['#: the second Tuesday', '0 0 * * 2#2', '2024-01-01T00:00:00Z', '2024-01-09T00:00:00.000Z'],
    ['? in day-of-month', '0 0 ? * 3', '2024-01-01T00:00:00Z', '2024-01-03T00:00:00.000Z'],
    ['day-of-month and day-of-week both set: either matches', '0 0 15 * MON', '2024-01-02T00:00:00Z', '2024-01-08T00:00:00.000Z'],
    ['7 for Sunday', '0 0 * * 7', '2024-01-01T00:00:00Z', '2024-01-07T00:00:00.000Z'],
  ])('%s: %s', (_name, spec, from, want) => {
    expect(next(spec, from)).toBe(want);
  });

  it('a next time is strictly after the time it is asked from', () => {
    expect(next('0 * * * *', '2024-01-01T05:00:00Z')).toBe('2024-01-01T06:00:00.000Z');
  });

  it('a year that has passed has no next time', () => {
    expect(next('0 0 1 1 * 2020', '2024-01-01T00:00:00Z')).toBeUndefined();
  });

  it('computes in the time zone', () => {
    // 09:00 in Tokyo is 00:00 UTC, which is not after itself
    expect(next('0 9 * * *', '2024-01-01T00:00:00Z', 'Asia/Tokyo')).toBe('2024-01-02T00:00:00.000Z');
    expect(next('0 9 * * *', '2024-07-01T00:00:00Z', 'America/New_York')).toBe('2024-07-01T13:00:00.000Z');
  });

  it.each([
    ['too few fields', '* * * *', 'expected 5 to 7 fields, found 4'],
    ['too many fields', '0 0 0 * * * * *', 'expected 5 to 7 fields, found 8'],
    ['an out-of-range minute', '61 * * * *', 'Invalid value for minute: 61'],
    ['an unknown descriptor', '@fortnightly', 'unknown descriptor "@fortnightly"'],
    ['letters', 'a b c d e', 'illegal characters'],
  ])('refuses %s', (_name, spec, problem) => {
    expect(cronProblem(spec)).toContain(problem);
  });

  it('accepts every form above', () => {
    for (const spec of ['*/15 * * * *', '*/15 * * * * *', '0 0 9 * * * *', '@hourly', '0 0 * * 5L', '0 0 LW * *']) expect(cronProblem(spec)).toBeUndefined();
  });
});

describe('daylight-saving changes: no instant twice, no fixed time missed', () => {
  it('America/New_York spring forward: 02:30 does not exist, the daily launch runs at the end of the gap, once', () => {
    expect(runs('30 2 * * *', '2024-03-09T12:00:00Z', 'America/New_York', 2)).toEqual(['2024-03-10T07:00:00.000Z', '2024-03-11T06:30:00.000Z']);
  });
  it('America/New_York fall back: 01:30 happens twice, the daily launch runs at the first, once', () => {
    expect(runs('30 1 * * *', '2024-11-02T12:00:00Z', 'America/New_York', 2)).toEqual(['2024-11-03T05:30:00.000Z', '2024-11-04T06:30:00.000Z']);
  });
  it('Europe/Berlin spring forward: hourly skips the hour that does not exist', () => {
    expect(runs('0 * * * *', '2024-03-31T00:30:00Z', 'Europe/Berlin', 3)).toEqual(['2024-03-31T01:00:00.000Z', '2024-03-31T02:00:00.000Z', '2024-03-31T03:00:00.000Z']);
  });
  it('Europe/Berlin fall back: hourly runs at both 02:00 instants, each once, in order', () => {
    const r = runs('0 * * * *', '2024-10-26T23:30:00Z', 'Europe/Berlin', 4);
    expect(r).toEqual(['2024-10-27T00:00:00.000Z', '2024-10-27T01:00:00.000Z', '2024-10-27T02:00:00.000Z', '2024-10-27T03:00:00.000Z']);
    expect(new Set(r).size).toBe(r.length);
  });
  it('asked from inside the repeated hour, the next time never goes back to its first pass', () => {
    // 01:20 EST, the second pass of 01:xx; 01:30 EDT has already gone.
    expect(next('30 1 * * *', '2024-11-03T06:20:00Z', 'America/New_York')).toBe('2024-11-04T06:30:00.000Z');
  });
});

describe('several specs and the periodic block', () => {
  const periodic = (p: Partial<PeriodicConfig>): PeriodicConfig => ({ Enabled: true, Spec: '', Specs: [], SpecType: 'cron', ProhibitOverlap: false, TimeZone: 'UTC', ...p });

  it('the next launch is the earliest of any spec', () => {
    expect(periodicNext(periodic({ Specs: ['0 12 * * *', '30 6 * * *'] }), new Date('2024-01-01T00:00:00Z'))?.toISOString()).toBe('2024-01-01T06:30:00.000Z');
    expect(periodicNext(periodic({ Specs: ['0 12 * * *', '30 6 * * *'] }), new Date('2024-01-01T07:00:00Z'))?.toISOString()).toBe('2024-01-01T12:00:00.000Z');
  });

  it('time_zone applies to every spec', () => {
    expect(periodicNext(periodic({ Spec: '0 9 * * *', TimeZone: 'Europe/Berlin' }), new Date('2024-01-01T00:00:00Z'))?.toISOString()).toBe('2024-01-01T08:00:00.000Z');
  });

  it('nextPeriodicLaunch: none for a disabled, stopped, non-periodic or parameterized parent', () => {
    const now = new Date('2024-01-01T00:00:00Z');
    const job = (extra: Record<string, unknown>) => canonicalizeJob({ ID: 'p', Type: 'batch', TaskGroups: [], Periodic: { Specs: ['@hourly'] }, ...extra });
    expect(nextPeriodicLaunch(job({}), now)?.toISOString()).toBe('2024-01-01T01:00:00.000Z');
    expect(nextPeriodicLaunch(job({ Periodic: { Specs: ['@hourly'], Enabled: false } }), now)).toBeUndefined();
    expect(nextPeriodicLaunch(job({ Stop: true }), now)).toBeUndefined();
    expect(nextPeriodicLaunch(job({ Periodic: undefined }), now)).toBeUndefined();
    expect(nextPeriodicLaunch(job({ ParameterizedJob: {} }), now)).toBeUndefined();
    expect(nextPeriodicLaunch(job({ ParameterizedJob: {}, Dispatched: true }), now)?.toISOString()).toBe('2024-01-01T01:00:00.000Z');
  });
});
