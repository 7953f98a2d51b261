import { describe, expect, it } from 'vitest';
import { formatDurationNs, parseDurationNs } from '../../../src/scheduler/structs/index.js';

describe('parseDurationNs', () => {
  it('reads Go duration strings into nanoseconds', () => {
    expect(parseDurationNs('30s')).toBe(30_000_000_000);
    expect(parseDurationNs('1h30m')).toBe(5_400_000_000_000);
    expect(parseDurationNs('300ms')).toBe(300_000_000);
    expect(parseDurationNs('1.5h')).toBe(5_400_000_000_000);
    expect(parseDurationNs('250us')).toBe(250_000);
    expect(parseDurationNs('-5s')).toBe(-5_000_000_000);
  });

  it('reads a bare integer as nanoseconds, as Nomad JSON carries them', () => {
    expect(parseDurationNs('5000000000')).toBe(5_000_000_000);
    expect(parseDurationNs('0')).toBe(0);
  });

  it('rejects text that is not a duration', () => {
    for (const bad of ['', 'soon', '5 s', '1d', 's5', '1h30']) {
      expect(parseDurationNs(bad), bad).toBeUndefined();
    }
  });
});

describe('formatDurationNs', () => {
  it('prints as Go does', () => {
    expect(formatDurationNs(0)).toBe('0s');
    expect(formatDurationNs(15_000_000_000)).toBe('15s');
    expect(formatDurationNs(60_000_000_000)).toBe('1m0s');
    expect(formatDurationNs(30 * 60_000_000_000)).toBe('30m0s');
    expect(formatDurationNs(24 * 3600_000_000_000)).toBe('24h0m0s');
    expect(formatDurationNs(300_000_000)).toBe('300ms');
  });
});
