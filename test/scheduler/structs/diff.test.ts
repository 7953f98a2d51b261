import { stripVTControlCharacters } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { canonicalizeJob, type Job } from '../../../src/scheduler/structs/index.js';
import { diffJobs, formatJobDiff, goQuote, type FieldDiff, type JobDiff, type ObjectDiff } from '../../../src/scheduler/structs/diff.js';
import { ApiError } from '../../../src/shared/errors.js';
import { JOB_VERSIONS_TABLE } from '../../../src/scheduler/state/jobs.js';
import { startInProcessServer, type InProcessServer } from '../../support/in-process.js';
import { loadPalette } from '../../../src/cli/output/colour.js';

type In = Record<string, unknown>;

const task = (extra: In = {}): In => ({ Name: 'web', Driver: 'raw_exec', Config: { command: '/bin/server', args: ['-port', '8080'] }, ...extra });
const group = (extra: In = {}, tasks: In[] = [task()]): In => ({ Name: 'app', Count: 1, Tasks: tasks, ...extra });
const job = (extra: In = {}, groups: In[] = [group()]): Job => canonicalizeJob({ ID: 'example', Datacenters: ['dc1'], TaskGroups: groups, ...extra });

const field = (d: { Fields: FieldDiff[] | null }, name: string) => d.Fields?.find((f) => f.Name === name);
const object = (d: { Objects: ObjectDiff[] | null }, name: string) => d.Objects?.filter((o) => o.Name === name) ?? [];
const brief = (fields: FieldDiff[] | null) => (fields ?? []).map((f) => [f.Type, f.Name, f.Old, f.New]);

describe('diffJobs', () => {
  it('is None all the way down for identical jobs, groups and tasks still listed', () => {
    const d = diffJobs(job(), job(), true);
    expect(d).toEqual({
      Type: 'None',
      ID: 'example',
      Fields: null,
      Objects: null,
      TaskGroups: [
        { Type: 'None', Name: 'app', Fields: null, Objects: null, Updates: null, Tasks: [{ Type: 'None', Name: 'web', Fields: null, Objects: null, Annotations: null }] },
      ],
    });
  });

  it('ignores what the server sets: versions, indexes, status, submit time, token', () => {
    const next = { ...job(), Version: 3, JobModifyIndex: 40, ModifyIndex: 41, CreateIndex: 2, Status: 'running', SubmitTime: 99, Stable: true, NomadTokenID: 'tok' };
    expect(diffJobs(job(), next, true).Type).toBe('None');
  });

  it('treats a null old job as Added: every set field, group, task and block Added', () => {
    const d = diffJobs(null, job(), true);
    expect(d.Type).toBe('Added');
    expect(d.ID).toBe('example');
    expect(field(d, 'Priority')).toEqual({ Type: 'Added', Name: 'Priority', Old: '', New: '50', Annotations: null });
    expect(field(d, 'AllAtOnce')?.New).toBe('false');
    expect(field(d, 'ParentID')).toBeUndefined(); // "" on both sides: nothing to show
    expect(field(d, 'ID')).toBeUndefined();
    expect(object(d, 'Datacenters')[0]).toMatchObject({ Type: 'Added', Fields: [{ Type: 'Added', Name: 'Datacenters', New: 'dc1' }] });
    const g = d.TaskGroups![0];
    expect(g).toMatchObject({ Type: 'Added', Name: 'app' });
    expect(field(g, 'Count')).toMatchObject({ Type: 'Added', New: '1' });
    expect(field(g, 'ShutdownDelay')).toBeUndefined();
    expect(object(g, 'RestartPolicy')[0].Type).toBe('Added');
    const t = g.Tasks![0];
    expect(t.Type).toBe('Added');
    expect(field(t, 'Driver')).toMatchObject({ Type: 'Added', New: 'raw_exec' });
    expect(field(t, 'KillTimeout')?.New).toBe('5000000000');
    expect(object(t, 'Config')[0]).toMatchObject({ Type: 'Added', Fields: [{ Name: 'args[0]', New: '-port' }, { Name: 'args[1]', New: '8080' }, { Name: 'command', New: '/bin/server' }] });
    expect(object(t, 'Resources')[0]).toMatchObject({ Type: 'Added' });
  });

  it('treats a null new job as Deleted, with the old values', () => {
    const d = diffJobs(job(), null, true);
    expect(d.Type).toBe('Deleted');
    expect(field(d, 'Priority')).toEqual({ Type: 'Deleted', Name: 'Priority', Old: '50', New: '', Annotations: null });
    expect(d.TaskGroups![0].Type).toBe('Deleted');
    expect(d.TaskGroups![0].Tasks![0].Type).toBe('Deleted');
    expect(object(d.TaskGroups![0].Tasks![0], 'Config')[0].Type).toBe('Deleted');
  });

  it('gives an empty None diff for two nulls and refuses jobs with different IDs', () => {
    expect(diffJobs(null, null, true)).toEqual({ Type: 'None', ID: '', Fields: null, Objects: null, TaskGroups: null });
    expect(() => diffJobs(job(), job({ ID: 'other' }), true)).toThrow('can not diff jobs with different IDs: "example" and "other"');
  });

  it('shows a count change on the group, and edits the job', () => {
    const d = diffJobs(job(), job({}, [group({ Count: 3 })]), true);
    expect(d.Type).toBe('Edited');
    expect(d.Fields).toBeNull();
    expect(d.TaskGroups![0]).toMatchObject({ Type: 'Edited', Fields: [{ Type: 'Edited', Name: 'Count', Old: '1', New: '3' }], Objects: null });
    expect(d.TaskGroups![0].Tasks![0].Type).toBe('None');
  });

  it('matches groups by name: added, deleted, unchanged; sorted by name', () => {
    const old = job({}, [group(), group({ Name: 'cache' })]);
    const next = job({}, [group(), group({ Name: 'db' })]);
    const d = diffJobs(old, next, true);
    expect(d.TaskGroups!.map((g) => [g.Name, g.Type])).toEqual([
      ['app', 'None'],
      ['cache', 'Deleted'],
      ['db', 'Added'],
    ]);
    expect(d.Type).toBe('Edited');
  });

  it('matches tasks by name', () => {
    const d = diffJobs(job(), job({}, [group({}, [task(), task({ Name: 'sidecar' })])]), true);
    expect(d.TaskGroups![0].Type).toBe('Edited');
    expect(d.TaskGroups![0].Tasks!.map((t) => [t.Name, t.Type])).toEqual([
      ['sidecar', 'Added'],
      ['web', 'None'],
    ]);
  });

  it('flattens an edited driver config: list items as [i], nested maps as [key]', () => {
    const old = job({}, [group({}, [task({ Config: { command: '/bin/server', args: ['-port', '8080'], mounts: [{ target: '/a' }], opts: { a: { b: 1 } } } })])]);
    const next = job({}, [group({}, [task({ Config: { command: '/bin/server', args: ['-port', '9090', '-v'], mounts: [{ target: '/b' }], opts: { a: { b: 1000000 } } } })])]);
    const t = diffJobs(old, next, false).TaskGroups![0].Tasks![0];
    expect(t.Type).toBe('Edited');
    const config = object(t, 'Config')[0];
    expect(config.Type).toBe('Edited');
    expect(brief(config.Fields)).toEqual([
      ['Edited', 'args[1]', '8080', '9090'],
      ['Added', 'args[2]', '', '-v'],
      ['Edited', 'mounts[0][target]', '/a', '/b'],
      // driver config numbers are float64 in Nomad, printed with %v
      ['Edited', 'opts[a][b]', '1', '1e+06'],
    ]);
    // contextual: the unchanged keys come along as None
    const ctx = object(diffJobs(old, next, true).TaskGroups![0].Tasks![0], 'Config')[0];
    expect(ctx.Fields!.filter((f) => f.Type === 'None').map((f) => f.Name)).toEqual(['args[0]', 'command']);
  });

  it('shows env and meta map entries as Env[k] / Meta[k] fields', () => {
    const old = job({ Meta: { owner: 'a' } }, [group({}, [task({ Env: { KEEP: '1', GONE: 'x', CHANGE: 'old' } })])]);
    const next = job({ Meta: { owner: 'b' } }, [group({}, [task({ Env: { KEEP: '1', CHANGE: 'new', NEW: 'y' } })])]);
    const d = diffJobs(old, next, true);
    expect(brief(d.Fields)).toEqual([['Edited', 'Meta[owner]', 'a', 'b']]);
    expect(brief(d.TaskGroups![0].Tasks![0].Fields)).toEqual([
      ['Edited', 'Env[CHANGE]', 'old', 'new'],
      ['Deleted', 'Env[GONE]', 'x', ''],
      ['Added', 'Env[NEW]', '', 'y'],
    ]);
  });

  it('shows an added constraint as an Added Constraint object; a changed one as Deleted + Added', () => {
    const c = { LTarget: '${attr.kernel.name}', RTarget: 'linux', Operand: '=' };
    const added = diffJobs(job(), job({ Constraints: [c] }), true);
    expect(added.Type).toBe('Edited');
    expect(object(added, 'Constraint')).toEqual([
      {
        Type: 'Added',
        Name: 'Constraint',
        Fields: [
          { Type: 'Added', Name: 'LTarget', Old: '', New: '${attr.kernel.name}', Annotations: null },
          { Type: 'Added', Name: 'Operand', Old: '', New: '=', Annotations: null },
          { Type: 'Added', Name: 'RTarget', Old: '', New: 'linux', Annotations: null },
        ],
        Objects: null,
      },
    ]);
    const changed = diffJobs(job({ Constraints: [c] }), job({ Constraints: [{ ...c, RTarget: 'darwin' }] }), false);
    expect(object(changed, 'Constraint').map((o) => o.Type)).toEqual(['Added', 'Deleted']);
  });

  it('lists the unchanged fields of a changed block as None only when contextual', () => {
    const next = job({}, [group({ RestartPolicy: { Attempts: 5 } })]);
    const ctx = object(diffJobs(job(), next, true).TaskGroups![0], 'RestartPolicy')[0];
    expect(ctx.Type).toBe('Edited');
    expect(brief(ctx.Fields)).toEqual([
      ['Edited', 'Attempts', '2', '5'],
      ['None', 'Delay', '15000000000', '15000000000'],
      ['None', 'Interval', '1800000000000', '1800000000000'],
      ['None', 'Mode', 'fail', 'fail'],
      ['None', 'RenderTemplates', 'false', 'false'],
    ]);
    const plain = object(diffJobs(job(), next, false).TaskGroups![0], 'RestartPolicy')[0];
    expect(brief(plain.Fields)).toEqual([['Edited', 'Attempts', '2', '5']]);
    // the job's, group's and task's own fields never carry None
    expect(diffJobs(job(), job({ Priority: 60 }), true).Fields).toHaveLength(1);
  });

  it('diffs datacenters as a set; an unchanged set is left out even when contextual', () => {
    const d = diffJobs(job(), job({ Datacenters: ['dc1', 'dc2'] }), true);
    expect(object(d, 'Datacenters')[0]).toMatchObject({
      Type: 'Added',
      Fields: [
        { Type: 'Added', Name: 'Datacenters', New: 'dc2' },
        { Type: 'None', Name: 'Datacenters', Old: 'dc1', New: 'dc1' },
      ],
    });
    expect(object(diffJobs(job(), job({ Datacenters: ['dc2'] }), false), 'Datacenters')[0].Type).toBe('Edited');
    expect(object(diffJobs(job(), job({ Priority: 60 }), true), 'Datacenters')).toEqual([]);
  });

  it('shows the group update strategy without Stagger, and optional durations as "" when unset', () => {
    const next = job({}, [group({ Update: { MaxParallel: 2, Stagger: 60_000_000_000 }, ShutdownDelay: 5_000_000_000 })]);
    const g = diffJobs(job(), next, false).TaskGroups![0];
    expect(brief(object(g, 'Update')[0].Fields)).toEqual([['Edited', 'MaxParallel', '1', '2']]);
    expect(brief(g.Fields)).toEqual([['Added', 'ShutdownDelay', '', '5000000000']]);
  });

  it('pairs services by name and port, and diffs their tags and checks', () => {
    const svc = { Name: 'web', PortLabel: 'http', Provider: 'nomad', Tags: ['a'], Checks: [{ Name: 'alive', Type: 'http', Path: '/', Interval: 10e9, Timeout: 2e9 }] };
    const old = job({}, [group({ Services: [svc] })]);
    const next = job({}, [group({ Services: [{ ...svc, Tags: ['a', 'b'], Checks: [{ ...svc.Checks[0], Path: '/health' }] }] })]);
    const s = object(diffJobs(old, next, false).TaskGroups![0], 'Service');
    expect(s).toHaveLength(1);
    expect(s[0].Type).toBe('Edited');
    expect(s[0].Objects!.map((o) => [o.Name, o.Type])).toEqual([
      ['Tags', 'Added'],
      ['Check', 'Edited'],
    ]);
    expect(brief(s[0].Objects![1].Fields)).toEqual([['Edited', 'Path', '/', '/health']]);
  });

  it('shows a changed network as the old one Deleted and the new one Added, ports by label', () => {
    const net = (port: number) => ({ Mode: 'host', ReservedPorts: [{ Label: 'http', Value: port }] });
    const d = diffJobs(job({}, [group({ Networks: [net(80)] })]), job({}, [group({ Networks: [net(8080)] })]), false);
    const nets = object(d.TaskGroups![0], 'Network');
    expect(nets.map((n) => n.Type)).toEqual(['Added', 'Deleted']);
    expect(nets[0].Objects![0]).toMatchObject({ Type: 'Added', Name: 'Static Port' });
    expect(field(nets[0].Objects![0], 'Value')?.New).toBe('8080');
  });

  it('diffs task resources, log config, templates and artifacts', () => {
    const old = job({}, [group({}, [task({ Templates: [{ DestPath: 'local/a', EmbeddedTmpl: 'one' }], Artifacts: [{ GetterSource: 'https://x/a.tgz' }] })])]);
    const next = job({}, [
      group({}, [
        task({
          Resources: { CPU: 200, MemoryMB: 300 },
          LogConfig: { MaxFiles: 3 },
          Templates: [{ DestPath: 'local/a', EmbeddedTmpl: 'two' }],
          Artifacts: [{ GetterSource: 'https://x/a.tgz', GetterOptions: { checksum: 'md5:1' } }],
        }),
      ]),
    ]);
    const t = diffJobs(old, next, false).TaskGroups![0].Tasks![0];
    expect(t.Objects!.map((o) => [o.Name, o.Type])).toEqual([
      ['Resources', 'Edited'],
      ['LogConfig', 'Edited'],
      ['Artifact', 'Added'],
      ['Artifact', 'Deleted'],
      ['Template', 'Edited'],
    ]);
    expect(brief(object(t, 'Resources')[0].Fields)).toEqual([['Edited', 'CPU', '100', '200']]);
    expect(field(object(t, 'Artifact')[0], 'GetterOptions[checksum]')?.New).toBe('md5:1');
    expect(brief(object(t, 'Template')[0].Fields)).toEqual([['Edited', 'EmbeddedTmpl', 'one', 'two']]);
  });

  it('diffs periodic and parameterized blocks', () => {
    const periodic = (spec: string) => job({ Type: 'batch', Periodic: { Spec: spec } });
    const p = object(diffJobs(periodic('0 3 * * *'), periodic('0 4 * * *'), false), 'Periodic')[0];
    expect(brief(p.Fields)).toEqual([['Edited', 'Spec', '0 3 * * *', '0 4 * * *']]);
    const param = diffJobs(job({ Type: 'batch' }), job({ Type: 'batch', ParameterizedJob: { Payload: 'required', MetaRequired: ['x'] } }), false);
    expect(object(param, 'ParameterizedJob')[0]).toMatchObject({
      Type: 'Added',
      Fields: [{ Type: 'Added', Name: 'Payload', New: 'required' }],
      Objects: [{ Type: 'Added', Name: 'MetaRequired', Fields: [{ Name: 'MetaRequired', New: 'x' }] }],
    });
  });
});

describe('formatJobDiff', () => {
  it('lays the diff out as nomad job plan does', () => {
    const old = job({}, [group(), group({ Name: 'old' })]);
    const next = job({ Priority: 70, Constraints: [{ LTarget: '${attr.kernel.name}', RTarget: 'linux', Operand: '=' }] }, [
      group({ Count: 3 }, [task({ Env: { FOO: 'bar' }, Config: { command: '/bin/server', args: ['-port', '9090'] } })]),
      group({ Name: 'new' }),
    ]);
    expect(formatJobDiff(diffJobs(old, next, true))).toBe(
      [
        '+/- Job: "example"',
        '+/- Priority: "50" => "70"',
        '+   Constraint {',
        '    + LTarget: "${attr.kernel.name}"',
        '    + Operand: "="',
        '    + RTarget: "linux"',
        '    }',
        '+/- Task Group: "app"',
        '  +/- Count: "1" => "3"',
        '  +/- Task: "web"',
        '    +   Env[FOO]: "bar"',
        '    +/- Config {',
        '          args[0]: "-port"',
        '      +/- args[1]: "8080" => "9090"',
        '          command: "/bin/server"',
        '        }',
        '',
        '+   Task Group: "new"',
        '    + Task: "web"',
        '',
        '-   Task Group: "old"',
        '    - Task: "web"',
      ].join('\n'),
    );
  });

  it('prints only the headers of an unedited job, and colours as Nomad with a palette', async () => {
    expect(formatJobDiff(diffJobs(job(), job(), true))).toBe('Job: "example"\nTask Group: "app"\n  Task: "web"');
    const palette = await loadPalette(true);
    expect([palette.green('+'), palette.red('-'), palette.yellowBright('+/-')]).toEqual(['\u001b[32m+\u001b[39m', '\u001b[31m-\u001b[39m', '\u001b[93m+/-\u001b[39m']);
    const coloured = formatJobDiff(diffJobs(job({}, [group({ Name: 'old' })]), job({ Priority: 60 }, [group({ Name: 'new' })]), true), { palette });
    expect(coloured).toContain(`${palette.yellowBright('+/-')} Priority: "50" => "60"`);
    expect(coloured).toContain(`${palette.green('+')}   ${palette.bold('Task Group: "new"')}`);
    expect(coloured).toContain(`${palette.red('-')}   ${palette.bold('Task Group: "old"')}`);
    expect(coloured).toBe(coloured.trim());
    // The same layout as without colour.
    expect(stripVTControlCharacters(coloured)).toBe(formatJobDiff(diffJobs(job({}, [group({ Name: 'old' })]), job({ Priority: 60 }, [group({ Name: 'new' })]), true)));
  });

  it('quotes values as Go does', () => {
    expect(goQuote('a"b\\c\nd\u0001é')).toBe('"a\\"b\\\\c\\nd\\x01é"');
  });
});

describe('GET /v1/job/:id/versions diffs', () => {
  let srv: InProcessServer;
  type Versions = { Versions: Array<{ Version: number; Priority: number }>; Diffs: JobDiff[] | null };
  const versions = (query: Record<string, string | boolean | number> = {}) => srv.client().scheduler<Versions>('GET', '/v1/job/example/versions', { query });
  const failure = async (p: Promise<unknown>) => {
    try {
      await p;
    } catch (err) {
      return { status: (err as ApiError).statusCode, message: (err as ApiError).errors.join('; ') };
    }
    throw new Error('expected the request to fail');
  };

  beforeAll(async () => {
    srv = await startInProcessServer();
    // versions 0, 1, 2: priority 50, 60, 70
    for (const Priority of [50, 60, 70]) {
      await srv.client().scheduler('POST', '/v1/jobs', { body: { Job: { ID: 'example', Priority, TaskGroups: [group()] } } });
    }
    // tag version 1 (no tag endpoint yet: straight into the store)
    await srv.server.services.store.write((tx) => {
      for (const { key, value } of tx.list<Job>(JOB_VERSIONS_TABLE)) {
        if (value.ID === 'example' && value.Version === 1) tx.put(JOB_VERSIONS_TABLE, key, { ...value, VersionTag: { Name: 'golden', Description: '', TaggedTime: 1 } });
      }
    });
  });
  afterAll(async () => srv?.close());

  it('has Diffs null unless asked', async () => {
    const res = await versions();
    expect(res.body.Versions.map((v) => v.Version)).toEqual([2, 1, 0]);
    expect(res.body.Diffs).toBeNull();
    expect((await versions({ diffs: false, diff_version: 0 })).body.Diffs).toBeNull();
  });

  it('diffs=true: one diff fewer than versions, each from the older version to the newer', async () => {
    const res = await versions({ diffs: true });
    expect(res.body.Diffs).toHaveLength(res.body.Versions.length - 1);
    expect(res.body.Diffs!.map((d) => brief(d.Fields))).toEqual([[['Edited', 'Priority', '60', '70']], [['Edited', 'Priority', '50', '60']]]);
    expect(res.body.Diffs!.every((d) => d.Type === 'Edited' && d.ID === 'example')).toBe(true);
  });

  it('diff_version: every version against that one, as many diffs as versions', async () => {
    const res = await versions({ diffs: true, diff_version: 0 });
    expect(res.body.Diffs).toHaveLength(res.body.Versions.length);
    expect(res.body.Diffs!.map((d) => [d.Type, brief(d.Fields)])).toEqual([
      ['Edited', [['Edited', 'Priority', '50', '70']]],
      ['Edited', [['Edited', 'Priority', '50', '60']]],
      ['None', []],
    ]);
    // diff_version alone implies diffs
    expect((await versions({ diff_version: 0 })).body.Diffs).toHaveLength(3);
  });

  it('diff_tag: every version against the tagged one', async () => {
    const res = await versions({ diffs: true, diff_tag: 'golden' });
    expect(res.body.Diffs!.map((d) => brief(d.Fields))).toEqual([[['Edited', 'Priority', '60', '70']], [], [['Edited', 'Priority', '60', '50']]]);
  });

  it('refuses an unknown version or tag, and both at once, with 400', async () => {
    expect(await failure(versions({ diffs: true, diff_version: 9 }))).toEqual({ status: 400, message: 'version 9 not found' });
    expect(await failure(versions({ diffs: true, diff_tag: 'nope' }))).toEqual({ status: 400, message: 'tag "nope" not found' });
    expect((await failure(versions({ diffs: true, diff_tag: 'golden', diff_version: 1 }))).status).toBe(400);
    expect((await failure(versions({ diffs: true, diff_version: 'x' }))).status).toBe(400);
  });

  it('still answers 404 for an unknown job', async () => {
    expect((await failure(srv.client().scheduler('GET', '/v1/job/nope/versions', { query: { diffs: true } }))).status).toBe(404);
  });
});
