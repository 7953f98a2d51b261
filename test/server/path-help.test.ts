import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server.js';
import { definePath } from '../../src/secrets/framework/path.js';
import { openApiPaths, patternRegex, renderBackendHelp, renderPathHelp } from '../../src/secrets/framework/help.js';

const noop = async () => undefined;

const roleDef = definePath({
  pattern: 'role/:role',
  synopsis: 'Manage roles.',
  description: 'Roles bind logins to policies.\nA second line.',
  fields: {
    role: { type: 'lowercase-string', description: 'Name of the role.' },
    policies: { type: 'list', description: 'Policies of issued tokens.', required: ['create'] },
    ttl: { type: 'duration', description: 'Token TTL.', default: 0 },
    auth_type: { type: 'string', description: 'How logins prove identity.', allowedValues: ['ec2', 'iam'], default: 'iam' },
    bound_ami_id: { type: 'list', description: 'Old name.', deprecated: 'bound_ami_ids' },
    dry_run: { type: 'bool', description: 'Validate only.', query: true },
  },
  existenceCheck: () => false,
  operations: {
    read: { summary: 'Read a role.', handler: noop },
    create: { summary: 'Create or update a role.', handler: noop },
    update: { summary: 'Create or update a role.', handler: noop },
    delete: { summary: 'Delete a role.', handler: noop },
  },
});

describe('renderPathHelp', () => {
  it("renders Vault's layout: request, route, synopsis, sorted parameters with types, description", () => {
    expect(renderPathHelp(roleDef, 'auth/cloud/', 'role/web')).toBe(
      [
        'Request:        role/web',
        'Matching Route: ^role/(?<role>[^/]+)$',
        '',
        'Manage roles.',
        '',
        '## PARAMETERS',
        '',
        '    auth_type (string)',
        '',
        '        How logins prove identity.',
        '',
        '    bound_ami_id (slice)',
        '',
        '        (DEPRECATED) Old name.',
        '',
        '    dry_run (bool)',
        '',
        '        Validate only.',
        '',
        '    policies (slice)',
        '',
        '        Policies of issued tokens.',
        '',
        '    role (lowercase string)',
        '',
        '        Name of the role.',
        '',
        '    ttl (duration (sec))',
        '',
        '        Token TTL.',
        '',
        '## DESCRIPTION',
        '',
        'Roles bind logins to policies.',
        'A second line.',
        '',
      ].join('\n'),
    );
  });

  it('shows the pattern when there is no request path, and no parameter section without fields', () => {
    const def = definePath({ pattern: 'health', fields: {}, synopsis: 'Health.', description: 'Says if the server is up.', operations: { read: { summary: 'Read.', handler: noop } } });
    expect(renderPathHelp(def, 'sys/')).toBe('Request:        health\nMatching Route: ^health$\n\nHealth.\n\n## DESCRIPTION\n\nSays if the server is up.\n');
  });

  it('escapes regex characters and matches the rest of the path for *params', () => {
    expect(patternRegex('policies/acl.v2/*name')).toBe('^policies/acl\\.v2/(?<name>.+)$');
    expect(new RegExp(patternRegex('policies/acl.v2/*name')).exec('policies/acl.v2/a/b')?.groups?.name).toBe('a/b');
    expect(new RegExp(patternRegex('policies/acl.v2/*name')).test('policies/aclxv2/a')).toBe(false);
  });

  it('names the replacement of a deprecated alias', () => {
    const alias = { ...roleDef, pattern: 'roles/:role', deprecatedFor: 'role/:role' };
    expect(renderPathHelp(alias, 'auth/cloud/')).toContain('This path is deprecated; use auth/cloud/role/:role instead.');
  });
});

describe('renderBackendHelp', () => {
  it('lists every path with its route and synopsis', () => {
    const text = renderBackendHelp({ type: 'cloud', description: 'Cloud logins.', paths: [roleDef] });
    expect(text).toContain('## DESCRIPTION\n\nCloud logins.\n');
    expect(text).toContain('    ^role/(?<role>[^/]+)$\n        Manage roles.\n');
  });
});

describe('openApiPaths', () => {
  const paths = openApiPaths(roleDef, 'auth/cloud/');
  const item = paths['/auth/cloud/role/{role}'];

  it('keys the path item by the full API path with {param}s', () => {
    expect(Object.keys(paths)).toEqual(['/auth/cloud/role/{role}']);
    expect(item.description).toBe('Manage roles.');
    expect(item.parameters).toEqual([{ name: 'role', in: 'path', description: 'Name of the role.', required: true, schema: { type: 'string', format: 'lowercase', description: 'Name of the role.' } }]);
  });

  it('documents reads and deletes with query parameters, writes with a JSON body', () => {
    expect(item.get?.summary).toBe('Read a role.');
    expect(item.get?.parameters?.map((p) => [p.name, p.in])).toEqual([
      ['auth_type', 'query'],
      ['bound_ami_id', 'query'],
      ['dry_run', 'query'],
      ['policies', 'query'],
      ['ttl', 'query'],
    ]);
    expect(item.delete?.summary).toBe('Delete a role.');
    const body = item.post?.requestBody?.content['application/json'].schema;
    expect(Object.keys(body?.properties ?? {})).toEqual(['auth_type', 'bound_ami_id', 'policies', 'ttl']);
    expect(body?.required).toEqual(['policies']);
    expect(body?.properties.auth_type).toMatchObject({ type: 'string', enum: ['ec2', 'iam'], default: 'iam' });
    expect(body?.properties.policies).toMatchObject({ type: 'array', items: { type: 'string' } });
    expect(body?.properties.ttl).toMatchObject({ type: 'string', format: 'duration' });
    expect(body?.properties.bound_ami_id?.deprecated).toBe(true);
    expect(item.post?.parameters?.map((p) => p.name)).toEqual(['dry_run']);
    expect(new Set([item.get?.operationId, item.post?.operationId, item.delete?.operationId]).size).toBe(3);
  });

  it('puts the list operation at the trailing-slash path when the path is also read', () => {
    const def = definePath({
      pattern: 'roles',
      fields: {},
      synopsis: 'Roles.',
      description: 'Roles.',
      operations: { list: { summary: 'List roles.', handler: noop }, read: { summary: 'Read all roles.', handler: noop } },
    });
    const out = openApiPaths(def, 'auth/cloud/');
    expect(out['/auth/cloud/roles'].get?.summary).toBe('Read all roles.');
    expect(out['/auth/cloud/roles/'].get?.summary).toBe('List roles.');
    expect(out['/auth/cloud/roles/'].get?.parameters?.[0]).toMatchObject({ name: 'list', in: 'query', required: true });
  });

  it('marks unauthenticated and sudo paths', () => {
    const def = definePath({ pattern: 'login', fields: {}, unauthenticated: true, sudo: true, synopsis: 'L.', description: 'L.', operations: { update: { summary: 'Log in.', handler: noop } } });
    const out = openApiPaths(def, 'auth/cloud/')['/auth/cloud/login'];
    expect(out['x-svc-unauthenticated']).toBe(true);
    expect(out['x-svc-sudo']).toBe(true);
    expect(out.post?.requestBody).toBeUndefined();
  });
});

describe('GET /v1/<path>?help=1', () => {
  let srv: TestServer;
  let limited: string;
  beforeAll(async () => {
    srv = await startTestServer();
    // A token with no capability on auth/token/create: help must not need one.
    const created = await srv.client().secrets('POST', 'auth/token/create', { body: { policies: ['default'], no_default_policy: false } });
    limited = String(created?.auth?.client_token);
  });
  afterAll(async () => {
    await srv?.close();
  });

  it('answers the help text and an OpenAPI document, without the envelope', async () => {
    const answer = (await srv.client(limited).secrets('GET', 'auth/token/create', { query: { help: '1' } })) as unknown as {
      help: string;
      openapi: { openapi: string; paths: Record<string, { post?: { requestBody?: { content: Record<string, { schema: { properties: Record<string, unknown> } }> } } }> };
    };
    expect(answer.help.startsWith('Request:        create\nMatching Route: ^create$\n\nCreate a token that is a child of the calling token.\n')).toBe(true);
    expect(answer.help).toContain('\n    policies (slice)\n');
    expect(answer.help).toContain('\n## DESCRIPTION\n');
    expect(answer.openapi.openapi).toBe('3.0.2');
    const body = answer.openapi.paths['/auth/token/create'].post?.requestBody?.content['application/json'].schema;
    expect(Object.keys(body?.properties ?? {})).toContain('policies');
    expect(answer).not.toHaveProperty('request_id');
  });

  it('shows the actual request path for a path with parameters', async () => {
    const answer = (await srv.client().secrets('GET', 'sys/policies/acl/some-name', { query: { help: '1' } })) as unknown as { help: string };
    expect(answer.help).toMatch(/^Request: {8}policies\/acl\/some-name\nMatching Route: \^policies\/acl\/\(\?<name>\[\^\/\]\+\)\$\n/);
  });

  it('describes a backend at its mount root', async () => {
    const answer = (await srv.client().secrets('GET', 'auth/token', { query: { help: '1' } })) as unknown as { help: string };
    expect(answer.help).toContain('## PATHS');
    expect(answer.help).toContain('    ^create$\n');
  });

  it('needs a valid token, even for an unauthenticated path', async () => {
    await expect(srv.client('').secrets('GET', 'sys/health', { query: { help: '1' } })).rejects.toMatchObject({ statusCode: 403 });
    await expect(srv.client('bogus').secrets('GET', 'auth/token/create', { query: { help: '1' } })).rejects.toMatchObject({ statusCode: 403 });
  });

  it('answers 404 for a path no backend serves', async () => {
    await expect(srv.client().secrets('GET', 'auth/token/no-such-path', { query: { help: '1' } })).rejects.toMatchObject({ statusCode: 404 });
  });

  it('svc path-help prints the text, or the OpenAPI document with -format=json', async () => {
    const text = await srv.cli(['path-help', 'auth/token/lookup']);
    expect(text.code).toBe(0);
    expect(text.stdout.startsWith('Request:        lookup\n')).toBe(true);
    const json = await srv.cli(['path-help', '-format=json', 'auth/token/lookup']);
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout).paths['/auth/token/lookup']).toBeDefined();
    const missing = await srv.cli(['path-help', 'auth/token/no-such-path']);
    expect(missing.code).toBe(2);
  });
});
