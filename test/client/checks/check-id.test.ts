/** Check IDs as Nomad's NomadCheckID makes them. */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { nomadCheckId } from '../../../src/client/checks/check-id.js';
import { canonicalizeJob } from '../../../src/scheduler/structs/index.js';
import type { ServiceCheck } from '../../../src/scheduler/structs/service.js';

const SEC = 1_000_000_000;
const ALLOC = '9f2c7a11-0000-4000-8000-000000000001';

function aCheck(extra: Record<string, unknown> = {}): ServiceCheck {
  const job = canonicalizeJob({
    ID: 'j',
    TaskGroups: [{ Name: 'g', Tasks: [{ Name: 't', Driver: 'raw_exec', Services: [{ Name: 's', PortLabel: 'http', Checks: [{ Name: 'alive', Type: 'http', Path: '/health', Interval: 10 * SEC, Timeout: 2 * SEC, ...extra }] }] }] }],
  });
  return job.TaskGroups[0].Tasks[0].Services![0].Checks![0];
}

describe('nomadCheckId', () => {
  it('is the MD5 of the alloc ID, group, task and the check settings, in Nomad\'s order and encoding', () => {
    const c = aCheck();
    const int64 = (n: number) => {
      const b = Buffer.alloc(8);
      b.writeBigInt64LE(BigInt(n));
      return b;
    };
    const expected = createHash('md5')
      .update(Buffer.concat([Buffer.from(`${ALLOC}gtalivehttprequire_healthy`), int64(10 * SEC), int64(2 * SEC), Buffer.from('/healthfalse')]))
      .digest('hex');
    expect(nomadCheckId(ALLOC, 'g', 't', c)).toBe(expected);
  });

  it('changes with what the check does, not with its notes', () => {
    const base = nomadCheckId(ALLOC, 'g', 't', aCheck());
    expect(nomadCheckId(ALLOC, 'g', '', aCheck())).not.toBe(base);
    expect(nomadCheckId(ALLOC, 'g', 't', aCheck({ Interval: 11 * SEC }))).not.toBe(base);
    expect(nomadCheckId(ALLOC, 'g', 't', aCheck({ Path: '/other' }))).not.toBe(base);
    expect(nomadCheckId(ALLOC, 'g', 't', aCheck({ Notes: 'just words' }))).toBe(base);
  });
});
