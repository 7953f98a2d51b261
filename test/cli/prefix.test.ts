/** ID prefix resolution shared by the job, eval, alloc and node commands. */
import { describe, expect, it } from 'vitest';
import { resolveByPrefix, sanitizeUuidPrefix, type PrefixKind } from '../../src/cli/prefix.js';
import { CommandFailure } from '../../src/cli/command-failure.js';

const IDS = ['ab12cd34-0000-4000-8000-000000000001', 'ab12ce00-0000-4000-8000-000000000002', 'ff000000-0000-4000-8000-000000000003'];

function kind(ids: string[], queries: string[] = []): PrefixKind<string> {
  return {
    plural: 'allocations',
    uuid: true,
    notFound: (p) => `No allocation(s) with prefix or id "${p}" found`,
    list: async (prefix) => {
      queries.push(prefix);
      return ids.filter((id) => id.replace(/-/g, '').startsWith(prefix.replace(/-/g, '')));
    },
    idOf: (id) => id,
    table: (m) => m.join('\n') + '\n',
  };
}

async function failure(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (err) {
    expect(err).toBeInstanceOf(CommandFailure);
    return (err as Error).message;
  }
  throw new Error('expected a failure');
}

describe('resolveByPrefix', () => {
  it('accepts a unique prefix and an exact ID', async () => {
    expect(await resolveByPrefix(kind(IDS), 'ff')).toBe(IDS[2]);
    expect(await resolveByPrefix(kind(IDS), IDS[0])).toBe(IDS[0]);
  });

  it('queries an even number of hex digits and narrows to what was typed', async () => {
    const queries: string[] = [];
    expect(await resolveByPrefix(kind(IDS, queries), 'ab12cd3')).toBe(IDS[0]);
    expect(queries).toEqual(['ab12cd']);
    expect(sanitizeUuidPrefix('ab12c')).toBe('ab12');
    expect(sanitizeUuidPrefix('ab12cd34-0')).toBe('ab12cd34-');
  });

  it('refuses an ambiguous prefix with the table of matches', async () => {
    expect(await failure(resolveByPrefix(kind(IDS), 'ab12'))).toBe(`Prefix matched multiple allocations\n\n${IDS[0]}\n${IDS[1]}`);
  });

  it('refuses unknown, too short and non-hex IDs', async () => {
    expect(await failure(resolveByPrefix(kind(IDS), '0000'))).toBe('No allocation(s) with prefix or id "0000" found');
    expect(await failure(resolveByPrefix(kind(IDS), 'a'))).toBe('Identifier must contain at least two characters.');
    expect(await failure(resolveByPrefix(kind(IDS), 'zz'))).toBe('No allocation(s) with prefix or id "zz" found');
  });

  it('lets an exact ID win over longer IDs it prefixes (job IDs)', async () => {
    const jobs: PrefixKind<string> = { ...kind(['web', 'web-api']), uuid: false, plural: 'jobs' };
    expect(await resolveByPrefix(jobs, 'web')).toBe('web');
    expect(await failure(resolveByPrefix(jobs, 'we'))).toBe('Prefix matched multiple jobs\n\nweb\nweb-api');
  });
});
