import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiError } from '../../../src/shared/errors.js';
import { startInProcessServer, type InProcessServer } from '../../support/in-process.js';

describe('namespace endpoints', () => {
  let srv: InProcessServer;
  beforeAll(async () => {
    srv = await startInProcessServer();
  });
  afterAll(async () => srv?.close());

  const failure = async (p: Promise<unknown>) => {
    try {
      await p;
      return { status: 200, message: '' };
    } catch (err) {
      return { status: (err as ApiError).statusCode, message: (err as ApiError).errors[0] };
    }
  };

  it('creates a namespace named in the body (PUT /v1/namespace), and requires the name', async () => {
    await srv.client().scheduler('PUT', '/v1/namespace', { body: { Name: 'team-b', Description: 'B' } });
    const read = await srv.client().scheduler<{ Name: string; Description: string }>('GET', '/v1/namespace/team-b');
    expect(read.body).toMatchObject({ Name: 'team-b', Description: 'B' });
    expect(await failure(srv.client().scheduler('PUT', '/v1/namespace', { body: { Description: 'no name' } }))).toMatchObject({ status: 400, message: expect.stringContaining('"Name"') });
    expect(await failure(srv.client().scheduler('PUT', '/v1/namespace/a', { body: { Name: 'b' } }))).toMatchObject({ status: 400 });
  });

  it('refuses to delete a namespace that holds jobs, until they are purged', async () => {
    await srv.client().scheduler('PUT', '/v1/namespace/busy', { body: {} });
    const job = { ID: 'j', Namespace: 'busy', Type: 'batch', TaskGroups: [{ Name: 'g', Tasks: [{ Name: 't', Driver: 'raw_exec', Config: { command: '/bin/true' } }] }] };
    await srv.client().scheduler('POST', '/v1/jobs', { body: { Job: job } });
    const refused = await failure(srv.client().scheduler('DELETE', '/v1/namespace/busy'));
    expect(refused).toMatchObject({ status: 400, message: expect.stringContaining('purge') });
    await srv.client().scheduler('DELETE', '/v1/job/j', { query: { namespace: 'busy', purge: true } });
    await srv.client().scheduler('DELETE', '/v1/namespace/busy');
    expect((await failure(srv.client().scheduler('GET', '/v1/namespace/busy'))).status).toBe(404);
  });

  it('never deletes the default namespace', async () => {
    expect(await failure(srv.client().scheduler('DELETE', '/v1/namespace/default'))).toMatchObject({ status: 400, message: expect.stringContaining('default') });
  });
});
