/**
 * `svc login -method=cloud type=ec2`, run as the built bin/svc on a simulated instance (its metadata
 * service is cloudsim's) against the real server, which verifies the signed document and asks the
 * simulator whether the instance runs.
 */
import { existsSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configureMount, jsonOf, startLoginEnv, type LoginEnv } from './setup.js';

let env: LoginEnv;
beforeAll(async () => {
  env = await startLoginEnv();
  await configureMount(env, 'cloud');
  await env.srv.client().secrets('POST', 'auth/cloud/role/ec2-role', { body: { auth_type: 'ec2', bound_account_id: env.sim.account, token_policies: 'default' } });
});
afterAll(async () => {
  await env?.close();
});

const SUCCESS = 'Success! You are now authenticated. The token information displayed below\n';

/** A running instance of the simulator's account that the metadata service now describes. */
function onNewInstance(opts: { imageId?: string } = {}): string {
  const { instanceId } = env.sim.addInstance(opts);
  env.sim.useInstance(instanceId);
  return instanceId;
}

const keyOf = (instanceId: string, mount = 'cloud') => `${env.srv.url}|${mount}|${instanceId}`;
/** The value of a row of the Key/Value table. */
const rowOf = (stdout: string, key: string) => stdout.split('\n').find((l) => l.split(/\s+/)[0] === key)?.split(/\s+/)[1];
const metadataPathsSince = (n: number) => env.sim.metadataRequests.slice(n).map((r) => r.path);

describe('svc login -method=cloud type=ec2', () => {
  it('logs in with the rsa2048 document, stores the token and the server\'s nonce (0600), and the next login reuses it', async () => {
    const id = onNewInstance();
    const seen = env.sim.metadataRequests.length;
    const first = await env.login('first', ['type=ec2', 'role=ec2-role']);
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    expect(first.stdout.startsWith(SUCCESS)).toBe(true);
    expect(metadataPathsSince(seen)).toEqual(['/latest/api/token', '/latest/dynamic/instance-identity/document', '/latest/dynamic/instance-identity/rsa2048']);

    const token = await readFile(env.tokenFile('first'), 'utf8');
    expect(rowOf(first.stdout, 'token')).toBe(token);
    const lookup = await env.withStoredToken('first', ['token', 'lookup', '-format=json']);
    expect(lookup.code, lookup.stderr).toBe(0);
    expect(JSON.parse(lookup.stdout).data).toMatchObject({ id: token, path: 'auth/cloud/login', policies: ['default'] });

    const nonces = await env.nonces('first');
    expect(Object.keys(nonces)).toEqual([keyOf(id)]);
    expect(nonces[keyOf(id)]).toBe(rowOf(first.stdout, 'token_meta_nonce'));
    expect((await stat(env.nonceFile('first'))).mode & 0o777).toBe(0o600);

    const again = await env.login('first', ['type=ec2', 'role=ec2-role', '-format=json']);
    expect(again.stderr).toBe('');
    expect(again.code).toBe(0);
    // The server echoes a nonce only to a login that sent none.
    expect(jsonOf(again).auth.metadata).not.toHaveProperty('nonce');
    expect(await readFile(env.tokenFile('first'), 'utf8')).toBe(jsonOf(again).auth.client_token);
    expect(await env.nonces('first')).toEqual(nonces);
  });

  it('sends nonce= instead of the stored one; a wrong one is the server\'s refusal (exit 2)', async () => {
    onNewInstance();
    expect((await env.login('wrong', ['type=ec2', 'role=ec2-role'])).code).toBe(0);
    const token = await readFile(env.tokenFile('wrong'), 'utf8');

    const res = await env.login('wrong', ['type=ec2', 'role=ec2-role', 'nonce=not-the-nonce']);
    expect(res.stdout).toBe('');
    expect(res.stderr).toMatch(/^Error: Error making API request\.\n\nURL: http:\/\/127\.0\.0\.1:\d+\/v1\/auth\/cloud\/login\nCode: 400\. Errors:\n\n\* .*client nonce mismatch/);
    expect(res.code).toBe(2);
    expect(await readFile(env.tokenFile('wrong'), 'utf8')).toBe(token);
  });

  it('sends the document and its signature with document=identity, which the server refuses by default', async () => {
    onNewInstance();
    const seen = env.sim.metadataRequests.length;
    const res = await env.login('identity-refused', ['type=ec2', 'role=ec2-role', 'document=identity']);
    expect(metadataPathsSince(seen)).toEqual(['/latest/api/token', '/latest/dynamic/instance-identity/document', '/latest/dynamic/instance-identity/signature']);
    expect(res.stderr).toContain('the identity and signature login relies on the provider\'s SHA-1 signed certificate');
    expect(res.stderr).toContain('-cloud-allow-sha1');
    expect(res.code).toBe(2);
    expect(existsSync(env.tokenFile('identity-refused'))).toBe(false);
  });

  describe('against a server started with -cloud-allow-sha1', () => {
    let sha1: LoginEnv;
    beforeAll(async () => {
      sha1 = await startLoginEnv({ allowSha1: true });
      await configureMount(sha1, 'cloud');
      await sha1.srv.client().secrets('POST', 'auth/cloud/role/ec2-role', { body: { auth_type: 'ec2', bound_account_id: sha1.sim.account, token_policies: 'default' } });
    });
    afterAll(async () => sha1?.close());

    it('logs in with document=identity: the document and its signature', async () => {
      sha1.sim.useInstance(sha1.sim.addInstance().instanceId);
      const res = await sha1.login('identity', ['type=ec2', 'role=ec2-role', 'document=identity']);
      expect(res.stderr).toBe('');
      expect(res.code).toBe(0);
      const again = await sha1.login('identity', ['type=ec2', 'role=ec2-role', 'document=identity']);
      expect(again.code, again.stderr).toBe(0);
    });
  });

  it('sends the DSA-signed document with document=pkcs7, which the server refuses by default', async () => {
    onNewInstance();
    const seen = env.sim.metadataRequests.length;
    const res = await env.login('pkcs7', ['type=ec2', 'role=ec2-role', 'document=pkcs7']);
    expect(metadataPathsSince(seen)).toContain('/latest/dynamic/instance-identity/pkcs7');
    expect(res.stderr).toContain('Error making API request.');
    expect(res.code).toBe(2);
    expect(existsSync(env.tokenFile('pkcs7'))).toBe(false);
    expect(await env.nonces('pkcs7')).toEqual({});
  });

  it('prints the whole response with -format=json, and keeps the token file untouched with -no-store', async () => {
    const id = onNewInstance();
    const res = await env.login('nostore', ['type=ec2', 'role=ec2-role', '-no-store', '-format=json']);
    expect(res.code).toBe(0);
    expect(res.stderr).toContain('The token was not stored in the token file.');
    const out = jsonOf(res);
    expect(out).toMatchObject({ request_id: expect.any(String), data: null, auth: { client_token: expect.any(String), policies: ['default'], renewable: true } });
    expect(out.auth.metadata).toMatchObject({ role: 'ec2-role', account_id: env.sim.account, auth_type: 'ec2', nonce: expect.any(String) });
    expect(existsSync(env.tokenFile('nostore'))).toBe(false);
    // The server has recorded the nonce whether or not the token is stored.
    expect(await env.nonces('nostore')).toEqual({ [keyOf(id)]: out.auth.metadata!.nonce });

    const tokenOnly = await env.login('nostore', ['type=ec2', 'role=ec2-role', '-token-only']);
    expect(tokenOnly.code, tokenOnly.stderr).toBe(0);
    expect(tokenOnly.stdout).toMatch(/^\S+$/);
    expect(existsSync(env.tokenFile('nostore'))).toBe(false);
  });

  it('with an empty nonce= disables reauthentication: nothing is stored and the next login is refused', async () => {
    const id = onNewInstance();
    const res = await env.login('once', ['type=ec2', 'role=ec2-role', 'nonce=']);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout).not.toContain('token_meta_nonce');
    expect(await env.nonces('once')).toEqual({});
    const entry = await env.srv.client().secrets('GET', `auth/cloud/identity-accesslist/${id}`);
    expect(entry?.data).toMatchObject({ role: 'ec2-role', disallow_reauthentication: true });

    const again = await env.login('once', ['type=ec2', 'role=ec2-role']);
    expect(again.stderr).toContain('reauthentication is disabled');
    expect(again.code).toBe(2);
  });

  it('keeps the token and warns when the nonce cannot be stored', async () => {
    const id = onNewInstance();
    const unwritable = `${env.nonceFile('warn')}.missing-dir/nonces`;
    const res = await env.login('warn', ['type=ec2', 'role=ec2-role'], { SVC_CLOUD_NONCE_FILE: unwritable });
    expect(res.code).toBe(0);
    expect(res.stderr).toContain(`WARNING! Error writing the nonce file ${unwritable}: ENOENT`);
    expect(res.stderr).toContain(`The next login of instance ${id} needs nonce= set to the metadata nonce of this login.`);
    expect(rowOf(res.stdout, 'token')).toBe(await readFile(env.tokenFile('warn'), 'utf8'));
    expect(rowOf(res.stdout, 'token_meta_nonce')).toMatch(/^[\w-]+$/);
  });

  it('sends no role when none is given, so that the server takes the role named like the image', async () => {
    onNewInstance({ imageId: 'ami-0123456789abcdef0' });
    await env.srv.client().secrets('POST', 'auth/cloud/role/ami-0123456789abcdef0', { body: { auth_type: 'ec2', bound_account_id: env.sim.account } });
    const res = await env.login('implied', ['type=ec2', '-format=json']);
    expect(res.code, res.stderr).toBe(0);
    expect(jsonOf(res).auth.metadata).toMatchObject({ role: 'ami-0123456789abcdef0' });
  });

  it('keeps one nonce per mount (-path) for the same instance and server', async () => {
    await configureMount(env, 'cloud-east');
    await env.srv.client().secrets('POST', 'auth/cloud-east/role/ec2-role', { body: { auth_type: 'ec2', bound_account_id: env.sim.account } });
    const id = onNewInstance();
    expect((await env.login('mounts', ['type=ec2', 'role=ec2-role'])).code).toBe(0);
    const east = await env.login('mounts', ['-path=cloud-east', 'type=ec2', 'role=ec2-role']);
    expect(east.code, east.stderr).toBe(0);
    const nonces = await env.nonces('mounts');
    expect(Object.keys(nonces).sort()).toEqual([keyOf(id), keyOf(id, 'cloud-east')].sort());
    expect(nonces[keyOf(id)]).not.toBe(nonces[keyOf(id, 'cloud-east')]);

    for (const args of [['type=ec2'], ['-path=cloud-east', 'type=ec2'], ['-path=/auth/cloud-east/', 'type=ec2']]) {
      const res = await env.login('mounts', [...args, 'role=ec2-role']);
      expect(res.code, `${args.join(' ')}: ${res.stderr}`).toBe(0);
    }
  });
});
