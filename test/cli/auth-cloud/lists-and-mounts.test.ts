/**
 * `svc auth cloud accesslist ...` and `tidy ...`, `-path` for a mount elsewhere than auth/cloud/, the
 * exit codes of usage and server errors, and the help and completions of the built bin/svc, which load
 * the `auth cloud` declarations from their own bundle.
 *
 * Access list entries are made by ec2 logins, which come with the next issue; until then the entries
 * here are written with the server's own storage function for them (putAccessListEntry), as a login will.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { putAccessListEntry, readAccessListEntry, type AccessListEntry } from '../../../src/secrets/auth/cloud/access-list.js';
import { startTestServer, type TestServer } from '../../support/server.js';
import { data, expectOk } from './cli-checks.js';
import { until } from '../../support/wait.js';

let srv: TestServer;

beforeAll(async () => {
  srv = await startTestServer({ client: false, cloud: { env: {} } });
  await srv.client().secrets('POST', 'sys/auth/cloud', { body: { type: 'cloud' } });
  await srv.client().secrets('POST', 'sys/auth/other', { body: { type: 'cloud' } });
});
afterAll(async () => srv?.close());

const accessor = (mount: string) => srv.server.services.mounts.get(`auth/${mount}/`)!.accessor;

const ok = (args: string[]) => expectOk(srv, args);

function entry(expiresInSeconds: number): AccessListEntry {
  const now = new Date();
  return {
    role: 'web',
    client_nonce: 'nonce-1',
    creation_time: now.toISOString(),
    disallow_reauthentication: false,
    pending_time: '2024-01-01T00:00:00Z',
    expiration_time: new Date(now.getTime() + expiresInSeconds * 1000).toISOString(),
    last_updated_time: now.toISOString(),
  };
}

describe('svc auth cloud accesslist', () => {
  it('reports a missing entry and an empty list with exit 2, and deleting a missing entry succeeds', async () => {
    const list = await srv.cli(['auth', 'cloud', 'accesslist', 'list']);
    expect(list.code).toBe(2);
    expect(list.stderr).toContain('No value found at auth/cloud/identity-accesslist/');
    const read = await srv.cli(['auth', 'cloud', 'accesslist', 'read', 'i-0000000000000000a']);
    expect(read.code).toBe(2);
    expect(read.stderr).toContain('No value found at auth/cloud/identity-accesslist/i-0000000000000000a');
    expect((await ok(['auth', 'cloud', 'accesslist', 'delete', 'i-0000000000000000a'])).stdout).toBe(
      'Success! Data deleted (if it existed) at: auth/cloud/identity-accesslist/i-0000000000000000a\n',
    );
  });

  it('reads, lists and deletes an entry a login made', async () => {
    await putAccessListEntry(srv.server.services, accessor('cloud'), 'i-0123456789abcdef0', entry(3600));
    const read = data((await ok(['auth', 'cloud', 'accesslist', 'read', '-format=json', 'i-0123456789abcdef0'])).stdout);
    expect(read).toMatchObject({ role: 'web', pending_time: '2024-01-01T00:00:00Z', disallow_reauthentication: false });
    expect((await ok(['auth', 'cloud', 'accesslist', 'list'])).stdout.trimEnd().split('\n')).toEqual(['Keys', '----', 'i-0123456789abcdef0']);
    await ok(['auth', 'cloud', 'accesslist', 'delete', 'i-0123456789abcdef0']);
    expect(readAccessListEntry(srv.server.services, accessor('cloud'), 'i-0123456789abcdef0')).toBeUndefined();
  });
});

describe('svc auth cloud tidy', () => {
  it('starts a tidy of the access list, prints the server\'s warning, and the expired entry goes', async () => {
    await putAccessListEntry(srv.server.services, accessor('cloud'), 'i-expired', entry(-3600));
    await putAccessListEntry(srv.server.services, accessor('cloud'), 'i-current', entry(3600));
    const res = await srv.cli(['auth', 'cloud', 'tidy', 'accesslist', '-safety-buffer=1s']);
    expect(res.code).toBe(0);
    expect(res.stdout).toBe('');
    expect(res.stderr).toContain('WARNING! The following warnings were returned from the server:');
    expect(res.stderr).toContain('Tidy operation successfully started');
    // The tidy runs after the answer; until() reads an absent entry as 'gone'.
    await until(async () => readAccessListEntry(srv.server.services, accessor('cloud'), 'i-expired') ?? 'gone', (e) => e === 'gone', 'the expired entry to be tidied', 10_000);
    expect(readAccessListEntry(srv.server.services, accessor('cloud'), 'i-current')).toBeDefined();
  });

  it('tidies the deny list; -format=json prints the whole answer with its warning', async () => {
    const res = await ok(['auth', 'cloud', 'tidy', 'denylist', '-format=json']);
    expect((JSON.parse(res.stdout) as { warnings: string[] }).warnings.join(' ')).toMatch(/Tidy operation (successfully started|already in progress)/);
  });

  it('a negative or malformed safety buffer is a usage error', async () => {
    const res = await srv.cli(['auth', 'cloud', 'tidy', 'accesslist', '-safety-buffer=-1h']);
    expect(res.code).toBe(1);
    expect(res.stderr).toContain('-safety-buffer');
  });
});

describe('-path: a mount at another path', () => {
  it('reaches auth/<path>/ and leaves auth/cloud/ alone', async () => {
    const written = await ok(['auth', 'cloud', 'role', 'write', '-path=other', '-bound-iam-principal-arn=arn:aws:iam::123456789012:role/*', 'elsewhere']);
    expect(written.stdout).toBe('Success! Data written to: auth/other/role/elsewhere\n');
    expect(JSON.parse((await ok(['auth', 'cloud', 'role', 'list', '-path=auth/other/', '-format=json'])).stdout)).toEqual(['elsewhere']);
    expect(data((await ok(['auth', 'cloud', 'role', 'read', '-path', 'other', '-format=json', 'elsewhere'])).stdout)).toMatchObject({ auth_type: 'iam' });
    const atDefault = await srv.cli(['auth', 'cloud', 'role', 'read', 'elsewhere']);
    expect(atDefault.code).toBe(2);
    expect(atDefault.stderr).toContain('No value found at auth/cloud/role/elsewhere');

    const nowhere = await srv.cli(['auth', 'cloud', 'role', 'list', '-path=nowhere']);
    expect(nowhere.code).toBe(2);
    const empty = await srv.cli(['auth', 'cloud', 'role', 'list', '-path=/']);
    expect(empty.code).toBe(1);
    expect(empty.stderr).toContain('-path must name the mount');
  });
});

describe('exit codes', () => {
  it('an unknown flag is a usage error: exit 1, the usage, and no request', async () => {
    const res = await srv.cli(['auth', 'cloud', 'role', 'write', '-bound-amis=ami-1', 'web']);
    expect(res.code).toBe(1);
    expect(res.stderr).toContain('flag provided but not defined: -bound-amis');
    expect(res.stderr).toContain('Usage: svc auth cloud role write [options] NAME');
    expect((await srv.cli(['auth', 'cloud', 'role', 'read', 'web'])).code).toBe(2);
  });

  it('a missing argument is a usage error', async () => {
    const res = await srv.cli(['auth', 'cloud', 'accesslist', 'read']);
    expect(res.code).toBe(1);
    expect(res.stderr).toContain('Not enough arguments');
  });

  it('a server error exits 2 with the server\'s message', async () => {
    const res = await srv.cli(['auth', 'cloud', 'role', 'write', '-auth-type=ec2', 'no-constraints']);
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(/^Code: 400\. Errors:\n\n\* at least one bound parameter should be specified on the role$/m);
  });

  it('a token without access is a server error too', async () => {
    const res = await srv.cli(['auth', 'cloud', 'role', 'list'], { token: 'not-a-token' });
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(/permission denied/);
  });
});

describe('help and completions of the built binary', () => {
  it('svc auth lists cloud; svc auth cloud and its groups list their subcommands', async () => {
    expect((await ok(['auth', '-help'])).stdout).toMatch(/^\s+cloud\s+Configure the cloud auth method$/m);
    const cloud = await srv.cli(['auth', 'cloud']);
    expect(cloud.code).toBe(1);
    for (const sub of ['accesslist', 'config', 'denylist', 'role', 'rotate-root', 'tidy']) expect(cloud.stdout).toMatch(new RegExp(`^\\s+${sub}\\s`, 'm'));
    expect((await ok(['auth', 'cloud', 'config', '-help'])).stdout).toMatch(/^\s+certificate\s/m);
  });

  it('svc auth cloud role write -help shows the flags generated from the role fields', async () => {
    const help = (await ok(['auth', 'cloud', 'role', 'write', '-help'])).stdout;
    expect(help.startsWith('Usage: svc auth cloud role write [options] NAME\n')).toBe(true);
    for (const flag of ['-path=<string>', '-bound-ami-id=<string>', '-token-policies=<string>, -policy', '-token-ttl=<duration>', '-format=<string>', 'Exit codes:']) expect(help).toContain(flag);
    expect(help).not.toMatch(/^\s+-role=/m);
  });

  it('svc completion bash completes the auth cloud commands', async () => {
    const script = (await ok(['completion', 'bash'])).stdout;
    expect(script).toContain('rotate-root');
    expect(script).toContain('-bound-iam-principal-arn=');
  });
});
