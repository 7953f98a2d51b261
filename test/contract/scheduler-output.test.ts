/**
 * Every scheduler command that prints data takes the one output flag set (`scheduler-output`: -format,
 * -field, -json, -t) and declares none of those flags itself; the scheduler commands that print only
 * progress, a stream or a confirmation are listed here, so a new command has to be placed on one side.
 */
import { describe, expect, it } from 'vitest';
import { fullRegistry } from '../../src/cli/registry.js';
import { FLAG_SETS } from '../../src/cli/flags/common.js';

const { commands } = await fullRegistry();
const scheduler = commands.filter((c) => c.family === 'scheduler');
const words = (path: string[]) => path.join(' ');

/** Scheduler commands that print no API object: actions confirmed in a sentence, monitors, streams, files. */
const NO_DATA = new Set([
  'namespace apply', 'namespace delete', 'run', 'stop', 'job validate', 'job run', 'job eval', 'job stop', 'job action',
  'job dispatch', 'job periodic force', 'job plan', 'job scale', 'job revert', 'job promote', 'job tag apply',
  'job tag unset', 'job init', 'job restart', 'alloc exec', 'alloc fs', 'alloc logs', 'alloc pause', 'alloc restart',
  'alloc signal', 'alloc stop', 'deployment fail', 'deployment pause', 'deployment resume', 'deployment promote',
  'node eligibility', 'node drain', 'system gc', 'monitor', 'event stream', 'ui',
  // The server's metrics as it wrote them: its -format names a wire format (json, prometheus), as Nomad's does.
  'operator metrics',
]);

const OUTPUT_FLAG_NAMES = FLAG_SETS['scheduler-output'].flags.map((f) => f.name);

describe('the scheduler output flag set', () => {
  it('holds -format, -field, -json and -t, with -format read from SVC_FORMAT', () => {
    expect([...OUTPUT_FLAG_NAMES].sort()).toEqual(['field', 'format', 'json', 't']);
    expect(FLAG_SETS['scheduler-output'].flags.find((f) => f.name === 'format')).toMatchObject({ env: 'SVC_FORMAT', choices: ['table', 'json', 'yaml'] });
  });
});

describe.each(scheduler.filter((c) => !NO_DATA.has(words(c.path))).map((c) => ({ name: words(c.path), c })))('svc $name', ({ c }) => {
  it('takes the scheduler-output flag set and no copy of its flags', () => {
    expect(c.flagSets ?? []).toContain('scheduler-output');
    expect((c.flags ?? []).map((f) => f.name).filter((n) => OUTPUT_FLAG_NAMES.includes(n))).toEqual([]);
  });
});
