/**
 * Every job file in examples/jobs/ (written the way Nomad users write them) parses, canonicalises and
 * validates with no error, and comes out with the shape its author meant.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseJobspec } from '../../src/jobspec/index.js';
import { canonicalizeJob, validateJob } from '../../src/scheduler/structs/index.js';

const dir = new URL('../../examples/jobs/', import.meta.url);
const files = readdirSync(dir).filter((f) => f.endsWith('.hcl')).sort();

/** What each file must become: its ID, type, and its groups with their tasks. */
const expected: Record<string, { id: string; type: string; groups: Record<string, string[]>; vars?: Record<string, string> }> = {
  'countdown.nomad.hcl': { id: 'countdown', type: 'batch', groups: { count: ['count'] } },
  'hello.nomad.hcl': { id: 'hello', type: 'batch', groups: { hello: ['say'] } },
  'lifecycle.nomad.hcl': { id: 'lifecycle', type: 'batch', groups: { app: ['prepare', 'logger', 'main', 'announce', 'cleanup'] } },
  'nightly-report.nomad.hcl': { id: 'nightly-report', type: 'batch', groups: { report: ['build'] } },
  'node-agent.nomad.hcl': { id: 'node-agent', type: 'system', groups: { agent: ['beat'] } },
  'redis.nomad.hcl': { id: 'example', type: 'service', groups: { cache: ['redis'] } },
  'secret-template.hcl': { id: 'secret-template', type: 'service', groups: { app: ['app'] } },
  'vars.nomad.hcl': { id: 'api', type: 'service', groups: { api: ['api'] }, vars: { image_tag: 'v1' } },
  'web.nomad.hcl': { id: 'web', type: 'service', groups: { frontend: ['server'] } },
};

describe('jobspec corpus (examples/jobs)', () => {
  it('knows every example file', () => {
    expect(files).toEqual(Object.keys(expected).sort());
  });

  for (const file of files) {
    it(`${file} parses, canonicalises and validates`, async () => {
      const want = expected[file];
      const api = await parseJobspec(readFileSync(new URL(file, dir), 'utf8'), { filename: file, variables: want.vars ?? {} });
      const job = canonicalizeJob(api);
      expect(validateJob(job)).toEqual([]);
      expect({ id: job.ID, type: job.Type }).toEqual({ id: want.id, type: want.type });
      expect(Object.fromEntries(job.TaskGroups.map((g) => [g.Name, g.Tasks.map((t) => t.Name)]))).toEqual(want.groups);
    });
  }

  it('keeps the lifecycle hooks and the periodic schedule as written', async () => {
    const lifecycle = canonicalizeJob(await parseJobspec(readFileSync(new URL('lifecycle.nomad.hcl', dir), 'utf8'), { filename: 'lifecycle.nomad.hcl' }));
    const hooks = Object.fromEntries(lifecycle.TaskGroups[0].Tasks.map((t) => [t.Name, t.Lifecycle]));
    expect(hooks).toEqual({
      prepare: { Hook: 'prestart', Sidecar: false },
      logger: { Hook: 'prestart', Sidecar: true },
      main: null,
      announce: { Hook: 'poststart', Sidecar: false },
      cleanup: { Hook: 'poststop', Sidecar: false },
    });
    const nightly = canonicalizeJob(await parseJobspec(readFileSync(new URL('nightly-report.nomad.hcl', dir), 'utf8'), { filename: 'nightly-report.nomad.hcl' }));
    expect(nightly.Periodic).toMatchObject({ Specs: ['0 3 * * *'], TimeZone: 'UTC', ProhibitOverlap: true, Enabled: true });
  });
});
