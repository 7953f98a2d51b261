import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server.js';

let ts: TestServer;

beforeAll(async () => {
  ts = await startTestServer();
});

afterAll(async () => {
  await ts?.close();
});

function json(stdout: string): Record<string, unknown> {
  return JSON.parse(stdout) as Record<string, unknown>;
}

describe('svc identity entity', () => {
  it('creates, reads, updates, lists and deletes an entity', async () => {
    const created = await ts.cli(['identity', 'entity', 'create', '-name=alice', '-policies=dev,ops', '-metadata=team=web', '-format=json']);
    expect(created.stderr).toBe('');
    expect(created.code).toBe(0);
    const id = (json(created.stdout).data as { id: string }).id;

    const read = await ts.cli(['identity', 'entity', 'read', '-name=alice', '-format=json']);
    expect(read.code).toBe(0);
    expect(json(read.stdout).data).toMatchObject({ id, name: 'alice', policies: ['dev', 'ops'], metadata: { team: 'web' }, disabled: false });

    const updated = await ts.cli(['identity', 'entity', 'update', '-disabled', '-policies=admin', id]);
    expect(updated.code).toBe(0);
    const field = await ts.cli(['identity', 'entity', 'read', id, '-field=policies']);
    expect(JSON.parse(field.stdout)).toEqual(['admin']);
    const table = await ts.cli(['identity', 'entity', 'read', id]);
    expect(table.stdout).toMatch(/^disabled\s+true$/m);

    const listed = await ts.cli(['identity', 'entity', 'list', '-format=json']);
    expect(listed.code).toBe(0);
    expect(JSON.parse(listed.stdout)).toContain(id);
    const byName = await ts.cli(['identity', 'entity', 'list', '-by-name']);
    expect(byName.stdout).toMatch(/^alice$/m);

    const both = await ts.cli(['identity', 'entity', 'read', id, '-name=alice']);
    expect(both.code).toBe(1);

    const deleted = await ts.cli(['identity', 'entity', 'delete', id]);
    expect(deleted.code).toBe(0);
    const gone = await ts.cli(['identity', 'entity', 'read', id]);
    expect(gone.code).toBe(2);
    expect(gone.stderr).toContain('No value found');
  });
});

describe('svc identity entity-alias', () => {
  it('creates, reads, updates, lists and deletes an alias, with flags from the field schemas', async () => {
    const c = ts.client();
    await c.secrets('POST', 'sys/auth/cli-cloud', { body: { type: 'cloud' } });
    const accessor = ts.server.services.mounts.get('auth/cli-cloud/')!.accessor;
    const entity = (await c.secrets('POST', 'identity/entity', { body: { name: 'bob-entity' } }))!.data!.id as string;

    const missing = await ts.cli(['identity', 'entity-alias', 'create', '-name=bob', `-canonical-id=${entity}`]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('-mount-accessor');

    const badAccessor = await ts.cli(['identity', 'entity-alias', 'create', '-name=bob', `-canonical-id=${entity}`, '-mount-accessor=auth_cloud_00000000']);
    expect(badAccessor.code).toBe(2);
    expect(badAccessor.stderr).toContain('invalid mount accessor');

    const created = await ts.cli([
      'identity', 'entity-alias', 'create', '-name=bob', `-canonical-id=${entity}`, `-mount-accessor=${accessor}`,
      '-custom-metadata=team=a', '-custom-metadata=env=prod', '-format=json',
    ]);
    expect(created.code).toBe(0);
    const data = json(created.stdout).data as { id: string; canonical_id: string };
    expect(data.canonical_id).toBe(entity);

    const read = await ts.cli(['identity', 'entity-alias', 'read', data.id, '-format=json']);
    expect(json(read.stdout).data).toMatchObject({
      id: data.id,
      name: 'bob',
      mount_accessor: accessor,
      mount_path: 'auth/cli-cloud/',
      mount_type: 'cloud',
      custom_metadata: { team: 'a', env: 'prod' },
    });

    const updated = await ts.cli(['identity', 'entity-alias', 'update', '-name=bobby', data.id, '-format=json']);
    expect(updated.code).toBe(0);
    expect(json(updated.stdout).data).toEqual({ id: data.id, canonical_id: entity });
    const name = await ts.cli(['identity', 'entity-alias', 'read', data.id, '-field=name']);
    expect(name.stdout).toBe('bobby');

    const listed = await ts.cli(['identity', 'entity-alias', 'list']);
    expect(listed.code).toBe(0);
    expect(listed.stdout.split('\n')).toContain(data.id);

    const deleted = await ts.cli(['identity', 'entity-alias', 'delete', data.id]);
    expect(deleted.code).toBe(0);
    const empty = await ts.cli(['identity', 'entity-alias', 'list']);
    expect(empty.code).toBe(2);
    expect(empty.stderr).toContain('No value found');
  });
});

describe('svc identity lookup entity', () => {
  it('prints the entity found by name or by alias, and exits 2 when none matches', async () => {
    const id = (json((await ts.cli(['identity', 'entity', 'create', '-name=dora', '-format=json'])).stdout).data as { id: string }).id;
    await ts.cli(['auth', 'enable', '-path=lookup-cli', 'cloud']);
    const accessor = (json((await ts.cli(['read', '-format=json', 'sys/auth'])).stdout).data as Record<string, { accessor: string }>)['lookup-cli/'].accessor;
    await ts.cli(['identity', 'entity-alias', 'create', '-name=dora@ci', `-canonical-id=${id}`, `-mount-accessor=${accessor}`]);

    const byName = await ts.cli(['identity', 'lookup', 'entity', '-name=dora', '-format=json']);
    expect(byName).toMatchObject({ code: 0, stderr: '' });
    expect(json(byName.stdout).data).toMatchObject({ id, name: 'dora', aliases: [expect.objectContaining({ name: 'dora@ci' })] });
    const byAlias = await ts.cli(['identity', 'lookup', 'entity', '-alias-name=dora@ci', `-alias-mount-accessor=${accessor}`, '-field=id']);
    expect(byAlias).toEqual({ code: 0, stderr: '', stdout: id });

    expect(await ts.cli(['identity', 'lookup', 'entity', '-name=nobody'])).toEqual({ code: 2, stdout: '', stderr: 'No entity matches the criteria given\n' });
  });

  it('exits 2 with the server error for two criteria', async () => {
    const run = await ts.cli(['identity', 'lookup', 'entity', '-name=dora', '-id=x']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('only one of "id", "name", "alias_id" or a pair of "alias_name" and "alias_mount_accessor" must be supplied');
  });
});
