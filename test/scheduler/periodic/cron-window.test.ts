/**
 * The schedule window (src/scheduler/periodic/cron-window.ts): inside or outside at a given instant, in
 * time zones, around midnight and across daylight-saving changes, the next transition, and the
 * validation of the block at job registration.
 */
import { describe, expect, it } from 'vitest';
import { scheduleProblems, windowAt, type CronWindow } from '../../../src/scheduler/periodic/cron-window.js';

const cron = (Start: string, End: string, Timezone = 'UTC'): CronWindow => ({ Start, End, Timezone });
const at = (c: CronWindow, iso: string) => {
  const w = windowAt(c, new Date(iso));
  return { open: w.open, until: w.until?.toISOString() };
};

describe('windowAt', () => {
  const weekdays = cron('0 9 * * MON-FRI *', '0 17');

  it('is open from a start until the end that follows it on the same day', () => {
    expect(at(weekdays, '2025-01-15T12:00:00Z')).toEqual({ open: true, until: '2025-01-15T17:00:00.000Z' });
    expect(at(weekdays, '2025-01-15T09:00:00Z')).toEqual({ open: true, until: '2025-01-15T17:00:00.000Z' });
  });

  it('is closed before the start and from the end on, until the next start', () => {
    expect(at(weekdays, '2025-01-15T08:59:59Z')).toEqual({ open: false, until: '2025-01-15T09:00:00.000Z' });
    expect(at(weekdays, '2025-01-15T17:00:00Z')).toEqual({ open: false, until: '2025-01-16T09:00:00.000Z' });
    // Friday evening: the next start is Monday's.
    expect(at(weekdays, '2025-01-17T18:00:00Z')).toEqual({ open: false, until: '2025-01-20T09:00:00.000Z' });
    expect(at(weekdays, '2025-01-18T12:00:00Z')).toEqual({ open: false, until: '2025-01-20T09:00:00.000Z' });
  });

  it('reads start and end in the schedule\'s time zone', () => {
    const ny = cron('0 9 * * * *', '0 17', 'America/New_York');
    // 09:30 in New York (EST, UTC-5)
    expect(at(ny, '2025-01-15T14:30:00Z')).toEqual({ open: true, until: '2025-01-15T22:00:00.000Z' });
    expect(at(ny, '2025-01-15T13:30:00Z')).toEqual({ open: false, until: '2025-01-15T14:00:00.000Z' });
    const tokyo = cron('0 9 * * * *', '0 17', 'Asia/Tokyo');
    // the same instant is 22:30 in Tokyo: closed until 09:00 there, 00:00 UTC
    expect(at(tokyo, '2025-01-15T13:30:00Z')).toEqual({ open: false, until: '2025-01-16T00:00:00.000Z' });
  });

  it('an empty time zone is the node\'s own', () => {
    const local = at(cron('0 9 * * * *', '0 17', ''), '2025-01-15T12:00:00Z');
    const named = at(cron('0 9 * * * *', '0 17', Intl.DateTimeFormat().resolvedOptions().timeZone), '2025-01-15T12:00:00Z');
    expect(local).toEqual(named);
    expect(at(cron('0 9 * * * *', '0 17', 'Local'), '2025-01-15T12:00:00Z')).toEqual(named);
  });

  it('a window ending just before midnight closes then, and the next opens the next day', () => {
    const late = cron('0 22 * * * *', '59 23');
    expect(at(late, '2025-01-15T23:30:00Z')).toEqual({ open: true, until: '2025-01-15T23:59:00.000Z' });
    expect(at(late, '2025-01-15T23:59:30Z')).toEqual({ open: false, until: '2025-01-16T22:00:00.000Z' });
    expect(at(late, '2025-01-16T00:30:00Z')).toEqual({ open: false, until: '2025-01-16T22:00:00.000Z' });
  });

  it('an overnight window is written in a zone where it does not cross midnight', () => {
    // 22:00 to 02:00 in New York (EST) is 03:00 to 07:00 UTC
    const overnight = cron('0 3 * * * *', '0 7');
    expect(at(overnight, '2025-01-16T04:00:00Z')).toEqual({ open: true, until: '2025-01-16T07:00:00.000Z' });
    expect(at(overnight, '2025-01-16T02:00:00Z')).toEqual({ open: false, until: '2025-01-16T03:00:00.000Z' });
  });

  it('follows local time across the spring daylight-saving change', () => {
    const ny = cron('0 9 * * * *', '0 17', 'America/New_York');
    // Saturday 8 March 2025, EST (UTC-5); Sunday 9 March, EDT (UTC-4)
    expect(at(ny, '2025-03-08T14:30:00Z')).toEqual({ open: true, until: '2025-03-08T22:00:00.000Z' });
    expect(at(ny, '2025-03-08T23:00:00Z')).toEqual({ open: false, until: '2025-03-09T13:00:00.000Z' });
    expect(at(ny, '2025-03-09T13:30:00Z')).toEqual({ open: true, until: '2025-03-09T21:00:00.000Z' });
    // A start in the skipped hour (02:30) opens the window when the gap ends, at 03:00 EDT.
    const inGap = cron('30 2 * * * *', '0 4', 'America/New_York');
    expect(at(inGap, '2025-03-09T06:00:00Z')).toEqual({ open: false, until: '2025-03-09T07:00:00.000Z' });
    expect(at(inGap, '2025-03-09T07:10:00Z')).toEqual({ open: true, until: '2025-03-09T08:00:00.000Z' });
  });

  it('follows local time across the autumn daylight-saving change', () => {
    // Sunday 2 November 2025: 01:00-02:00 happens twice in New York; the window opens at the first 01:30.
    const twice = cron('30 1 * * * *', '0 3', 'America/New_York');
    expect(at(twice, '2025-11-02T05:00:00Z')).toEqual({ open: false, until: '2025-11-02T05:30:00.000Z' });
    expect(at(twice, '2025-11-02T05:45:00Z')).toEqual({ open: true, until: '2025-11-02T08:00:00.000Z' });
    // the second 01:45 (EST) is still inside
    expect(at(twice, '2025-11-02T06:45:00Z')).toEqual({ open: true, until: '2025-11-02T08:00:00.000Z' });
  });

  it('with several starts a day, the window runs from the latest start to the end after it', () => {
    const hourly = cron('0 9-17 * * * *', '0 18');
    expect(at(hourly, '2025-01-15T12:30:00Z')).toEqual({ open: true, until: '2025-01-15T18:00:00.000Z' });
    expect(at(hourly, '2025-01-15T18:30:00Z')).toEqual({ open: false, until: '2025-01-16T09:00:00.000Z' });
  });

  it('each transition time leads to the next one, alternating', () => {
    const c = cron('0 9 * * * *', '30 12');
    let t = new Date('2025-01-15T06:00:00Z');
    const seen: string[] = [];
    for (let i = 0; i < 4; i++) {
      const w = windowAt(c, t);
      seen.push(`${w.open ? 'open' : 'closed'} until ${w.until!.toISOString()}`);
      t = w.until!;
    }
    expect(seen).toEqual([
      'closed until 2025-01-15T09:00:00.000Z',
      'open until 2025-01-15T12:30:00.000Z',
      'closed until 2025-01-16T09:00:00.000Z',
      'open until 2025-01-16T12:30:00.000Z',
    ]);
  });

  it('a schedule whose years are past never opens again', () => {
    expect(at(cron('0 9 * * * 2020', '0 17'), '2025-01-15T12:00:00Z')).toEqual({ open: false, until: undefined });
  });
});

describe('scheduleProblems', () => {
  const problems = (Start: string, End: string, Timezone = '') => scheduleProblems({ Cron: { Start, End, Timezone } });

  it('accepts a valid block', () => {
    expect(problems('0 9 * * MON-FRI *', '0 17', 'America/New_York')).toEqual([]);
    expect(problems('30 9 * * * *', '0 9-17', 'Local')).toEqual([]);
    expect(problems('0 9 1-15 1-6 * 2025-2030', '* 17')).toEqual([]);
    expect(problems('0 9 * * mon-fri *', '0 17')).toEqual([]);
  });

  it('needs a cron block', () => {
    expect(scheduleProblems({ Cron: null })).toEqual(['must specify cron block']);
  });

  it('names cron.start when it is not 6 fields, has , or /, or is not a cron expression', () => {
    expect(problems('0 9 * * *', '0 17')[0]).toMatch(/^cron\.start must contain 6 fields/);
    expect(problems('', '0 17')[0]).toMatch(/^cron\.start must contain 6 fields/);
    expect(problems('0 9,12 * * * *', '0 17')[0]).toMatch(/^cron\.start must not contain "," or "\/"/);
    expect(problems('*/5 9 * * * *', '0 17')[0]).toMatch(/^cron\.start must not contain/);
    expect(problems('0 25 * * * *', '0 17')[0]).toMatch(/^cron\.start "0 25 \* \* \* \*" is not a valid cron expression/);
  });

  it('names cron.end when it is not a minute and an hour', () => {
    expect(problems('0 9 * * * *', '0 17 *')[0]).toMatch(/^cron\.end must contain 2 fields/);
    expect(problems('0 9 * * * *', '0,30 17')[0]).toMatch(/^cron\.end must not contain/);
    expect(problems('0 9 * * * *', '60 17')[0]).toMatch(/^cron\.end must be a minute \(0-59\) and an hour \(0-23\)/);
    expect(problems('0 9 * * * *', '0 24')[0]).toMatch(/^cron\.end must be a minute/);
  });

  it('rejects an end that is not after every start of the day', () => {
    expect(problems('0 17 * * * *', '0 9')[0]).toMatch(/^cron\.end "0 9" must come after cron\.start "0 17 \* \* \* \*" on the same day/);
    expect(problems('0 9 * * * *', '0 9')[0]).toMatch(/must come after cron\.start/);
    expect(problems('0 9-17 * * * *', '0 12')[0]).toMatch(/must come after cron\.start/);
  });

  it('names cron.timezone when the zone is unknown', () => {
    expect(problems('0 9 * * * *', '0 17', 'Mars/Olympus_Mons')).toEqual(['cron.timezone: unknown time zone "Mars/Olympus_Mons"']);
  });
});
