import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../../../src/shared/errors.js';
import { startInProcessServer, type InProcessServer } from '../../support/in-process.js';

const job = (id: string, extra: Record<string, unknown> = {}) => ({
  ID: id,
  Type: 'batch',
  TaskGroups: [{ Name: 'g', Count: 1, Tasks: [{ Name: 't', Driver: 'raw_exec', Config: { command: '/bin/true' } }] }],
  ...extra,
});

describe('job endpoints', () => {
  let srv: InProcessServer;
  let readOnly: string;
  beforeAll(async () => {
    // No node: these tests are about the job API, and with nothing to place on, jobs stay pending.
    srv = await startInProcessServer();
    const c = srv.client();
    await c.secrets('PUT', 'sys/policies/acl/reader', { body: { policy: 'namespace "default" { policy = "read" }' } });
    await c.secrets('PUT', 'sys/policies/acl/writer', { body: { policy: 'namespace "default" { policy = "write" }' } });
    readOnly = String((await c.secrets('POST', 'auth/token/create', { body: { policies: ['reader'] } }))?.auth?.client_token);
  });
  afterAll(async () => srv?.close());

  const register = (body: unknown, token?: string) => srv.client(token).scheduler<Record<string, unknown>>('POST', '/v1/jobs', { body });
  const status = async (p: Promise<unknown>) => {
    try {
      await p;
      return 200;
    } catch (err) {
      return (err as ApiError).statusCode;
    }
  };

  it('registers, reads and lists a job with the defaults filled in', async () => {
    const reg = await register({ Job: job('hello') });
    expect(reg.body.JobModifyIndex).toBeGreaterThan(0);
    expect(reg.index).toBe(reg.body.Index);
    // As Nomad's write responses: QueryMeta at its zero values but for Index.
    expect(reg.body).toMatchObject({ LastContact: 0, KnownLeader: false, NextToken: '' });
    // A read's QueryMeta says what this server knows: it leads.
    const versions = await srv.client().scheduler<Record<string, unknown>>('GET', '/v1/job/hello/versions');
    expect(versions.body).toMatchObject({ LastContact: 0, KnownLeader: true });
    const read = await srv.client().scheduler<Record<string, unknown>>('GET', '/v1/job/hello');
    expect(read.body).toMatchObject({ ID: 'hello', Name: 'hello', Type: 'batch', Namespace: 'default', Region: 'global', Priority: 50, Version: 0, Status: 'pending' });
    const list = await srv.client().scheduler<Array<Record<string, unknown>>>('GET', '/v1/jobs');
    expect(list.body.map((j) => j.ID)).toContain('hello');
    expect(list.body.find((j) => j.ID === 'hello')).not.toHaveProperty('Meta');
  });

  it('makes no new version for an unchanged job, and one for a changed job', async () => {
    const first = await register({ Job: job('versions') });
    const again = await register({ Job: job('versions') });
    expect(again.body.JobModifyIndex).toBe(first.body.JobModifyIndex);
    await register({ Job: job('versions', { Priority: 70 }) });
    const versions = await srv.client().scheduler<{ Versions: Array<{ Version: number; Priority: number }> }>('GET', '/v1/job/versions/versions');
    expect(versions.body.Versions.map((v) => v.Version)).toEqual([1, 0]);
    expect(versions.body.Versions[0].Priority).toBe(70);
  });

  it('enforces the job modify index (check-and-set)', async () => {
    const created = await register({ Job: job('cas'), EnforceIndex: true, JobModifyIndex: 0 });
    expect(await status(register({ Job: job('cas', { Priority: 60 }), EnforceIndex: true, JobModifyIndex: 0 }))).toBe(409);
    expect(await status(register({ Job: job('cas', { Priority: 60 }), EnforceIndex: true, JobModifyIndex: 1 }))).toBe(409);
    const ok = await register({ Job: job('cas', { Priority: 60 }), EnforceIndex: true, JobModifyIndex: created.body.JobModifyIndex });
    expect(ok.body.JobModifyIndex).toBeGreaterThan(created.body.JobModifyIndex as number);
    const read = await srv.client().scheduler<{ Priority: number }>('GET', '/v1/job/cas');
    expect(read.body.Priority).toBe(60);
  });

  it('keeps the six most recent submissions', async () => {
    for (let i = 1; i <= 8; i++) {
      await register({ Job: job('subs', { Priority: 10 + i }), Submission: { Source: `# version ${i - 1}`, Format: 'hcl2' } });
    }
    const sub = await srv.client().scheduler<{ Source: string; Version: number }>('GET', '/v1/job/subs/submission', { query: { version: 7 } });
    expect(sub.body).toMatchObject({ Source: '# version 7', Version: 7 });
    expect(await status(srv.client().scheduler('GET', '/v1/job/subs/submission', { query: { version: 2 } }))).toBe(200);
    expect(await status(srv.client().scheduler('GET', '/v1/job/subs/submission', { query: { version: 1 } }))).toBe(404);
    expect(await status(srv.client().scheduler('GET', '/v1/job/subs/submission'))).toBe(400);
  });

  it('answers the submission as stored with its version, and 404 for a version registered without one', async () => {
    await register({ Job: job('sourced'), Submission: { Source: '{"Job":{}}', Format: 'json', VariableFlags: { size: '3' }, Variables: 'tier = "gold"' } });
    await register({ Job: job('sourced', { Priority: 60 }) });
    const sub = await srv.client().scheduler<Record<string, unknown>>('GET', '/v1/job/sourced/submission', { query: { version: 0 } });
    expect(sub.body).toMatchObject({ JobID: 'sourced', Namespace: 'default', Version: 0, Format: 'json', Source: '{"Job":{}}', VariableFlags: { size: '3' }, Variables: 'tier = "gold"' });
    expect(await status(srv.client().scheduler('GET', '/v1/job/sourced/submission', { query: { version: 1 } }))).toBe(404);
    expect(await status(register({ Job: job('sourced'), Submission: { Source: 'x', Format: 'yaml' } }))).toBe(400);
  });

  it('PreserveCounts keeps the counts of the groups the job already has', async () => {
    const twoGroups = (count: number) => job('counted', { TaskGroups: ['a', 'b'].map((Name) => ({ Name, Count: count, Tasks: [{ Name: 't', Driver: 'raw_exec', Config: { command: '/bin/true' } }] })) });
    await register({ Job: { ...twoGroups(2), TaskGroups: twoGroups(2).TaskGroups.slice(0, 1) } });
    await register({ Job: twoGroups(5), PreserveCounts: true });
    const preserved = await srv.client().scheduler<{ TaskGroups: Array<{ Name: string; Count: number }> }>('GET', '/v1/job/counted');
    expect(preserved.body.TaskGroups.map((g) => [g.Name, g.Count])).toEqual([['a', 2], ['b', 5]]);
    await register({ Job: twoGroups(4) });
    const replaced = await srv.client().scheduler<{ TaskGroups: Array<{ Count: number }> }>('GET', '/v1/job/counted');
    expect(replaced.body.TaskGroups.map((g) => g.Count)).toEqual([4, 4]);
  });

  it('registers a new job at its own path, and updates it there', async () => {
    expect(await status(srv.client().scheduler('GET', '/v1/job/by-path'))).toBe(404);
    const created = await srv.client().scheduler<{ JobModifyIndex: number }>('POST', '/v1/job/by-path', { body: { Job: job('by-path') } });
    expect((await srv.client().scheduler<{ Version: number }>('GET', '/v1/job/by-path')).body.Version).toBe(0);
    const updated = await srv.client().scheduler<{ JobModifyIndex: number }>('PUT', '/v1/job/by-path', { body: { Job: job('by-path', { Priority: 70 }) } });
    expect(updated.body.JobModifyIndex).toBeGreaterThan(created.body.JobModifyIndex);
    expect((await srv.client().scheduler<{ Version: number; Priority: number }>('GET', '/v1/job/by-path')).body).toMatchObject({ Version: 1, Priority: 70 });
  });

  it('filters and pages the job list', async () => {
    for (const id of ['page-a', 'page-b', 'page-c']) await register({ Job: job(id, { Meta: { team: id === 'page-b' ? 'infra' : 'web' } }) });
    const filtered = await srv.client().scheduler<Array<{ ID: string }>>('GET', '/v1/jobs', { query: { filter: 'Meta.team == "infra"' } });
    expect(filtered.body.map((j) => j.ID)).toEqual(['page-b']);
    const first = await srv.client().scheduler<Array<{ ID: string }>>('GET', '/v1/jobs', { query: { prefix: 'page-', per_page: 2 } });
    expect(first.body.map((j) => j.ID)).toEqual(['page-a', 'page-b']);
    expect(first.nextToken).toBe('default.page-c');
    const second = await srv.client().scheduler<Array<{ ID: string }>>('GET', '/v1/jobs', { query: { prefix: 'page-', per_page: 2, next_token: first.nextToken } });
    expect(second.body.map((j) => j.ID)).toEqual(['page-c']);
    expect(second.nextToken).toBeUndefined();
    const unpaged = await srv.client().scheduler<Array<{ ID: string }>>('GET', '/v1/jobs', { query: { prefix: 'page-', per_page: 0 } });
    expect(unpaged.body.map((j) => j.ID)).toEqual(['page-a', 'page-b', 'page-c']);
    expect(unpaged.nextToken).toBeUndefined();
    expect(await status(srv.client().scheduler('GET', '/v1/jobs', { query: { filter: 'Meta.team ==' } }))).toBe(400);
    const withMeta = await srv.client().scheduler<Array<{ ID: string; Meta?: unknown }>>('GET', '/v1/jobs', { query: { prefix: 'page-b', meta: true } });
    expect(withMeta.body[0].Meta).toEqual({ team: 'infra' });
  });

  it('stops a job as a new version, and purges it', async () => {
    await register({ Job: job('stopme') });
    const stopped = await srv.client().scheduler<Record<string, unknown>>('DELETE', '/v1/job/stopme');
    expect(stopped.body).toMatchObject({ LastContact: 0, KnownLeader: false });
    expect(stopped.body.JobModifyIndex).toBeGreaterThan(0);
    const read = await srv.client().scheduler<{ Stop: boolean; Version: number }>('GET', '/v1/job/stopme');
    expect(read.body).toMatchObject({ Stop: true, Version: 1 });
    await srv.client().scheduler('DELETE', '/v1/job/stopme', { query: { purge: true } });
    expect(await status(srv.client().scheduler('GET', '/v1/job/stopme'))).toBe(404);
    expect(await status(srv.client().scheduler('GET', '/v1/job/stopme/versions'))).toBe(404);
    expect(await status(srv.client().scheduler('DELETE', '/v1/job/never-there'))).toBe(404);
  });

  it('serves job IDs that contain a slash', async () => {
    await register({ Job: job('batch/periodic-1700000000') });
    const read = await srv.client().scheduler<{ ID: string }>('GET', `/v1/job/${encodeURIComponent('batch/periodic-1700000000')}`);
    expect(read.body.ID).toBe('batch/periodic-1700000000');
    const versions = await srv.client().scheduler<{ Versions: unknown[] }>('GET', '/v1/job/batch/periodic-1700000000/versions');
    expect(versions.body.Versions).toHaveLength(1);
  });

  it('rejects bad requests with a 400 that names the problem', async () => {
    const message = async (body: unknown, path = '/v1/jobs') => {
      try {
        await srv.client().scheduler('POST', path, { body });
        return 'accepted';
      } catch (err) {
        expect((err as ApiError).statusCode).toBe(400);
        return (err as ApiError).errors[0];
      }
    };
    expect(await message({})).toContain('Job must be specified');
    expect(await message({ Job: job('x'), Bogus: 1 })).toContain('"Bogus"');
    expect(await message({ Job: job('x'), EnforceIndex: 'yes' })).toContain('"EnforceIndex"');
    expect(await message({ Job: job('x'), EvalPriority: 101 })).toContain('Eval priority');
    expect(await message({ Job: job('x', { TaskGroups: [] }) })).toMatch(/task group/i);
    expect(await message({ Job: job('other') }, '/v1/job/x')).toContain('Job ID does not match name');
    expect(await message({ Job: job('x', { Namespace: 'nowhere' }) })).toContain('nowhere');
  });

  it('checks the namespace capabilities each endpoint needs (submit-job to register, read-job to read)', async () => {
    expect(await status(register({ Job: job('acl') }, readOnly))).toBe(403);
    await register({ Job: job('acl') });
    expect(await status(srv.client(readOnly).scheduler('GET', '/v1/job/acl'))).toBe(200);
    expect(await status(srv.client(readOnly).scheduler('GET', '/v1/jobs'))).toBe(200);
    expect(await status(srv.client(readOnly).scheduler('DELETE', '/v1/job/acl'))).toBe(403);
    const writer = String((await srv.client().secrets('POST', 'auth/token/create', { body: { policies: ['writer'] } }))?.auth?.client_token);
    expect(await status(register({ Job: job('acl-po'), PolicyOverride: true }, writer))).toBe(403);
    expect(await status(register({ Job: job('acl-po') }, writer))).toBe(200);
  });

  it('each read of a job and its records needs read-job; listing needs list-jobs', async () => {
    await register({ Job: job('guarded'), Submission: { Source: '# guarded' } });
    const tokenWith = async (name: string, caps: string[]) => {
      await srv.client().secrets('PUT', `sys/policies/acl/${name}`, { body: { policy: `namespace "default" { capabilities = ${JSON.stringify(caps)} }` } });
      return String((await srv.client().secrets('POST', 'auth/token/create', { body: { policies: [name] } }))?.auth?.client_token);
    };
    const lister = await tokenWith('list-only', ['list-jobs']);
    const jobReader = await tokenWith('read-job-only', ['read-job']);
    const reads = ['', '/versions', '/allocations', '/evaluations', '/deployments', '/deployment', '/summary', '/submission?version=0'];
    for (const suffix of reads) {
      const [tail, version] = suffix.split('?version=');
      const get = (token: string) => status(srv.client(token).scheduler('GET', `/v1/job/guarded${tail}`, { query: version === undefined ? {} : { version } }));
      expect({ suffix, lister: await get(lister), reader: await get(jobReader) }).toEqual({ suffix, lister: 403, reader: 200 });
    }
    expect(await status(srv.client(lister).scheduler('GET', '/v1/jobs'))).toBe(200);
    expect(await status(srv.client(jobReader).scheduler('GET', '/v1/jobs'))).toBe(403);
  });

  it('validates a job and reports every error at once', async () => {
    const ok = await srv.client().scheduler<Record<string, unknown>>('PUT', '/v1/validate/job', { body: { Job: job('valid') } });
    expect(ok.body).toMatchObject({ ValidationErrors: null, Error: '' });
    const bad = await srv.client().scheduler<{ ValidationErrors: string[] }>('PUT', '/v1/validate/job', {
      body: { Job: job('bad', { Priority: 500, TaskGroups: [{ Name: 'g', Count: -1, Tasks: [{ Name: 't' }] }] }) },
    });
    expect(bad.body.ValidationErrors.length).toBeGreaterThanOrEqual(2);
  });
});

describe('POST /v1/jobs/parse', () => {
  let srv: InProcessServer;
  beforeAll(async () => {
    // No node: these tests are about the job API, and with nothing to place on, jobs stay pending.
    srv = await startInProcessServer();
  });
  afterAll(async () => srv?.close());

  const hcl = `
variable "image" {
  type    = string
  default = "busybox"
}

job "web" {
  datacenters = ["dc1"]
  group "g" {
    count = 2
    task "t" {
      driver = "raw_exec"
      config {
        command = "/bin/echo"
        args    = ["\${var.image}", "\${NOMAD_ALLOC_ID}"]
      }
      resources {
        cpu    = 200
        memory = 128
      }
    }
  }
}
`;

  it('turns HCL into API JSON, with variables, leaving runtime interpolations alone', async () => {
    const answer = await srv.client().scheduler<Record<string, any>>('POST', '/v1/jobs/parse', { body: { JobHCL: hcl, Variables: 'image = "alpine"' } });
    expect(answer.body.ID).toBe('web');
    const task = answer.body.TaskGroups[0].Tasks[0];
    expect(answer.body.TaskGroups[0].Count).toBe(2);
    expect(task.Config.args).toEqual(['alpine', '${NOMAD_ALLOC_ID}']);
    expect(task.Resources).toMatchObject({ CPU: 200, MemoryMB: 128 });
  });

  it('canonicalizes on request', async () => {
    const plain = await srv.client().scheduler<Record<string, any>>('POST', '/v1/jobs/parse', { body: { JobHCL: hcl } });
    const canonical = await srv.client().scheduler<Record<string, any>>('POST', '/v1/jobs/parse', { body: { JobHCL: hcl, Canonicalize: true } });
    expect(plain.body.Priority ?? null).toBeNull();
    expect(canonical.body.Priority).toBe(50);
    expect(canonical.body.TaskGroups[0].Tasks[0].Config.args[0]).toBe('busybox');
  });

  it('answers 400 for an empty spec and for a syntax error, naming the line', async () => {
    const fail = async (body: unknown) => {
      try {
        await srv.client().scheduler('POST', '/v1/jobs/parse', { body });
        return 'accepted';
      } catch (err) {
        expect((err as ApiError).statusCode).toBe(400);
        return (err as ApiError).errors[0];
      }
    };
    expect(await fail({ JobHCL: '' })).toContain('Job spec is empty');
    expect(await fail({ JobHCL: 'job "x" {\n  group "g" {\n    count = \n  }\n}\n' })).toMatch(/Failed to parse job: .*3/);
  });

  it('needs parse-job or submit-job in the namespace', async () => {
    const tokenWith = async (name: string, caps: string[]) => {
      await srv.client().secrets('PUT', `sys/policies/acl/${name}`, { body: { policy: `namespace "default" { capabilities = ${JSON.stringify(caps)} }` } });
      return srv.client(String((await srv.client().secrets('POST', 'auth/token/create', { body: { policies: [name] } }))?.auth?.client_token));
    };
    const parse = async (client: ReturnType<typeof srv.client>) => {
      try {
        await client.scheduler('POST', '/v1/jobs/parse', { body: { JobHCL: hcl } });
        return 200;
      } catch (err) {
        return (err as ApiError).statusCode;
      }
    };
    expect(await parse(await tokenWith('parser', ['parse-job']))).toBe(200);
    expect(await parse(await tokenWith('submitter', ['submit-job']))).toBe(200);
    expect(await parse(await tokenWith('lister', ['list-jobs', 'read-job']))).toBe(403);
    expect(await parse(srv.client(''))).toBe(403);
  });
});

describe('registration rules', () => {
  let srv: InProcessServer;
  beforeAll(async () => {
    // No node: these tests are about the job API, and with nothing to place on, jobs stay pending.
    srv = await startInProcessServer();
    await srv.client().scheduler('PUT', '/v1/namespace/dev', { body: {} });
  });
  afterAll(async () => srv?.close());

  const base = (id: string, extra: Record<string, unknown> = {}) => ({
    ID: id,
    Type: 'service',
    TaskGroups: [{ Name: 'g', Tasks: [{ Name: 't', Driver: 'raw_exec', Config: { command: '/bin/sleep' } }] }],
    ...extra,
  });
  const outcome = async (p: Promise<unknown>) => {
    try {
      await p;
      return { status: 200, message: '' };
    } catch (err) {
      return { status: (err as ApiError).statusCode, message: (err as ApiError).errors[0] };
    }
  };

  it('checks submit-job on the namespace the job lands in, before validating it', async () => {
    await srv.client().secrets('PUT', 'sys/policies/acl/dev-submit', { body: { policy: 'namespace "dev" { capabilities = ["submit-job", "read-job"] }' } });
    const token = String((await srv.client().secrets('POST', 'auth/token/create', { body: { policies: ['dev-submit'] } }))?.auth?.client_token);
    expect((await outcome(srv.client(token).scheduler('POST', '/v1/jobs', { body: { Job: base('in-dev', { Namespace: 'dev' }) } }))).status).toBe(200);
    expect((await outcome(srv.client(token).scheduler('POST', '/v1/job/in-dev', { body: { Job: base('in-dev', { Namespace: 'dev', Priority: 70 }) } }))).status).toBe(200);
    // No access to default: refused without validation feedback, even for an invalid job.
    const refused = await outcome(srv.client(token).scheduler('POST', '/v1/jobs', { body: { Job: base('in-default', { Priority: 500 }) } }));
    expect(refused.status).toBe(403);
  });

  it('refuses Dispatched, ignores a submitted VersionTag, and refuses a type change', async () => {
    expect(await outcome(srv.client().scheduler('POST', '/v1/jobs', { body: { Job: base('disp', { Dispatched: true }) } }))).toMatchObject({ status: 400, message: expect.stringContaining('Dispatched') });
    await srv.client().scheduler('POST', '/v1/jobs', { body: { Job: base('tagged', { VersionTag: { Name: 'prod' } }) } });
    const read = await srv.client().scheduler<{ VersionTag: unknown }>('GET', '/v1/job/tagged');
    expect(read.body.VersionTag).toBeNull();
    expect(await outcome(srv.client().scheduler('POST', '/v1/jobs', { body: { Job: base('tagged', { Type: 'batch' }) } }))).toMatchObject({ status: 400, message: expect.stringContaining('type') });
  });

  it('matches the body ID without regard to case', async () => {
    expect(await outcome(srv.client().scheduler('POST', '/v1/job/re', { body: { Job: { ...base('x'), ID: undefined, id: 'other' } } }))).toMatchObject({
      status: 400,
      message: 'Job ID does not match name',
    });
  });

  it('lists one namespace, or with * every namespace the token may list; another namespace needs access', async () => {
    await srv.client().scheduler('POST', '/v1/jobs', { body: { Job: base('star-default') } });
    await srv.client().scheduler('POST', '/v1/jobs', { body: { Job: base('star-dev', { Namespace: 'dev' }) } });
    const ids = async (client: ReturnType<typeof srv.client>, namespace?: string) =>
      (await client.scheduler<Array<{ ID: string; Namespace: string }>>('GET', '/v1/jobs', { query: { prefix: 'star-', ...(namespace ? { namespace } : {}) } })).body.map((j) => `${j.Namespace}/${j.ID}`);
    expect(await ids(srv.client())).toEqual(['default/star-default']);
    expect(await ids(srv.client(), 'dev')).toEqual(['dev/star-dev']);
    expect(await ids(srv.client(), '*')).toEqual(['default/star-default', 'dev/star-dev']);
    await srv.client().secrets('PUT', 'sys/policies/acl/dev-lister', { body: { policy: 'namespace "dev" { capabilities = ["list-jobs"] }' } });
    const devOnly = srv.client(String((await srv.client().secrets('POST', 'auth/token/create', { body: { policies: ['dev-lister'] } }))?.auth?.client_token));
    expect(await ids(devOnly, '*')).toEqual(['dev/star-dev']);
    expect((await outcome(devOnly.scheduler('GET', '/v1/jobs'))).status).toBe(403);
  });

  it('wakes a blocked job listing when a job is purged', async () => {
    const reg = await srv.client().scheduler<{ EvalID: string }>('POST', '/v1/jobs', { body: { Job: base('gone', { Namespace: 'dev' }) } });
    // Let the broker finish with the job first: its summary changing would wake the listing too.
    for (let i = 0; i < 200; i++) {
      const e = await srv.client().scheduler<{ Status: string }>('GET', `/v1/evaluation/${reg.body.EvalID}`);
      if (e.body.Status !== 'pending') break;
      await new Promise((r) => setTimeout(r, 25));
    }
    const before = await srv.client().scheduler('GET', '/v1/jobs', { query: { namespace: 'dev' } });
    const blocked = srv.client().scheduler<Array<{ ID: string }>>('GET', '/v1/jobs', { query: { namespace: 'dev', index: before.index, wait: '20s' } });
    await new Promise((r) => setTimeout(r, 200));
    await srv.client().scheduler('DELETE', '/v1/job/gone', { query: { namespace: 'dev', purge: true } });
    const answer = await blocked;
    expect(answer.index).toBeGreaterThan(before.index);
    expect(answer.body.map((j) => j.ID)).not.toContain('gone');
  });
});
