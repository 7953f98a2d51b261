/**
 * What the cloud auth method keeps between requests follows the store, not itself: records changed by
 * writes that bypass this server's endpoints (as another server process sharing the store makes them,
 * with the same storage helpers) are seen by the next login. And each server builds its own method, so
 * two servers in one process, even on copies of one data dir (same accessors, same table indexes),
 * share no clients, guards or memories.
 */
import { cpSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCloudSim, type CloudSim } from '../../../../src/cloudsim/index.js';
import { metadataClient } from '../../../../src/cloud/metadata.js';
import { updateClientConfig } from '../../../../src/secrets/auth/cloud/client-config.js';
import { CONFIG_TABLE, deleteEntry, updateEntry, writeEntry } from '../../../../src/secrets/auth/cloud/mount-storage.js';
import { parseCertificateInput } from '../../../../src/secrets/auth/cloud/path-config-certificate.js';
import { roleEntryName, type RoleEntry } from '../../../../src/secrets/auth/cloud/role-entry.js';
import { ApiError } from '../../../../src/shared/errors.js';
import { makeTempDir, startTestServer, type TestServer } from '../../../support/server.js';
import { signedCallerIdentity, startLoginWorld, type LoginWorld } from './login/login-support.js';

const ACCOUNT = '123456789012';

/** 'ok' for a login that got a token, else the refusal's status and first message. */
async function outcome(login: Promise<unknown>): Promise<'ok' | { status: number; message: string }> {
  try {
    await login;
    return 'ok';
  } catch (err) {
    if (err instanceof ApiError) return { status: err.statusCode, message: err.errors[0] ?? '' };
    throw err;
  }
}

describe('writes that bypass the server', () => {
  let w: LoginWorld;
  let accessor: string;
  let instanceId: string;
  let rsa2048: string;
  const others: CloudSim[] = [];
  const services = () => w.srv.server.services;

  beforeAll(async () => {
    w = await startLoginWorld({ sim: { account: ACCOUNT } });
    accessor = services().mounts.get('auth/cloud/')!.accessor;
    instanceId = w.sim.addInstance().instanceId;
    rsa2048 = (await w.documents(instanceId)).rsa2048;
    await w.writeRole('web', { auth_type: 'ec2', bound_account_id: ACCOUNT, disallow_reauthentication: true });
  });
  afterAll(async () => {
    await w?.close();
    await Promise.all(others.map((s) => s.close()));
  });

  async function otherSim(): Promise<CloudSim> {
    const sim = await startCloudSim({ account: ACCOUNT });
    others.push(sim);
    return sim;
  }

  /** An ec2 login of `id` with its signed document; the role lets the instance log in again once its access-list entry is gone. */
  async function ec2Login(id = instanceId, pkcs7 = rsa2048) {
    await w.srv.client().secrets('DELETE', `auth/cloud/identity-accesslist/${id}`);
    return outcome(w.login({ role: 'web', pkcs7 }));
  }

  /** Stores config/client for `sim`'s endpoints and root key as another server would: straight to the store. */
  async function pointAt(sim: CloudSim): Promise<void> {
    const { accessKeyId, secretAccessKey } = sim.rootCredentials;
    await updateClientConfig(services(), accessor, (current) => ({ ...current!, access_key: accessKeyId, endpoint: sim.url, iam_endpoint: sim.url, sts_endpoint: sim.url }), secretAccessKey);
  }

  const describeCalls = (sim: CloudSim, from = 0) => sim.requests.slice(from).filter((r) => r.action === 'DescribeInstances').length;

  it('a config/client written past the server: the next login asks the provider at the new endpoint', async () => {
    expect(await ec2Login()).toBe('ok');
    const other = await otherSim();
    other.addInstance({ instanceId });
    await pointAt(other);
    const before = w.sim.requests.length;
    expect(await ec2Login()).toBe('ok');
    expect(describeCalls(other)).toBe(1);
    expect(describeCalls(w.sim, before)).toBe(0);

    await pointAt(w.sim);
    expect(await ec2Login()).toBe('ok');
    expect(describeCalls(other)).toBe(1);
  });

  it("a role's bound account changed past the server: the next login is refused, and admitted once it is changed back", async () => {
    expect(await ec2Login()).toBe('ok');
    await updateEntry<RoleEntry>(services().store, accessor, roleEntryName('web'), (role) => ({ ...role!, bound_account_id: ['999999999999'] }));
    expect(await ec2Login()).toEqual({ status: 400, message: `Error validating instance: account ID "${ACCOUNT}" does not belong to role "web"` });
    await updateEntry<RoleEntry>(services().store, accessor, roleEntryName('web'), (role) => ({ ...role!, bound_account_id: [ACCOUNT] }));
    expect(await ec2Login()).toBe('ok');
  });

  it('a certificate registered and removed past the server: the next login trusts it, then no longer does', async () => {
    // A document signed by another simulator's key, for an instance the mount's provider knows.
    const signer = await otherSim();
    const signed = signer.addInstance().instanceId;
    w.sim.addInstance({ instanceId: signed });
    signer.useInstance(signed);
    const document = (await metadataClient({ endpoint: signer.metadataUrl }).rsa2048()).replace(/\n/g, '');
    const login = () => ec2Login(signed, document);
    const untrusted = { status: 400, message: 'failed to verify the signature: no trusted certificate matches the signer (issuer and serial number)' };

    expect(await login()).toEqual(untrusted);
    await writeEntry(services().store, accessor, 'config/certificate/signer', { pem: parseCertificateInput(signer.certificates.rsa2048), type: 'pkcs7' });
    expect(await login()).toBe('ok');
    await deleteEntry(services().store, accessor, 'config/certificate/signer');
    expect(await login()).toEqual(untrusted);
  });

  it("a principal's full ARN is looked up again after the role or the configuration was written past the server", async () => {
    const olga = w.sim.addUser({ name: 'olga', path: '/ops/' });
    await w.writeRole('ops', { auth_type: 'iam', bound_iam_principal_arn: `arn:aws:iam::${ACCOUNT}:user/ops/*` });
    const lookups = async () => {
      const from = w.sim.requests.length;
      expect((await w.login({ role: 'ops', ...signedCallerIdentity(olga) })).auth.metadata?.auth_type).toBe('iam');
      return w.sim.requests.slice(from).filter((r) => r.action === 'GetUser').length;
    };

    expect(await lookups()).toBe(1);
    expect(await lookups()).toBe(0);
    await updateEntry<RoleEntry>(services().store, accessor, roleEntryName('ops'), (role) => ({ ...role!, token_ttl: 600 }));
    expect(await lookups()).toBe(1);
    expect(await lookups()).toBe(0);
    await updateClientConfig(services(), accessor, (current) => ({ ...current!, max_retries: 1 }));
    expect(await lookups()).toBe(1);
    expect(await lookups()).toBe(0);
  });
});

describe('two servers in one process', () => {
  let first: TestServer;
  let second: TestServer;
  let accessor: string;
  let dirs: string[] = [];
  /** made at the first start; a restarted server makes none */
  let rootToken: string;

  beforeAll(async () => {
    // The second server runs on a copy of the first one's data dir: the same mount accessors, the same
    // table indexes, so only state that is each server's own keeps them apart.
    dirs = [await makeTempDir(), await makeTempDir()];
    const original = await startTestServer({ client: false, dataDir: dirs[0] });
    await original.client().secrets('POST', 'sys/auth/cloud', { body: { type: 'cloud' } });
    await original.client().secrets('POST', 'auth/cloud/config/client', { body: { access_key: 'AKIAFIRST', secret_key: 'first-secret' } });
    accessor = original.server.services.mounts.get('auth/cloud/')!.accessor;
    rootToken = original.rootToken;
    await original.close();
    cpSync(dirs[0], dirs[1], { recursive: true });
    first = await startTestServer({ client: false, dataDir: dirs[0] });
    second = await startTestServer({ client: false, dataDir: dirs[1] });
  });
  afterAll(async () => {
    await Promise.all([first?.close(), second?.close()]);
    await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
  });

  it('each has its own provider per mount, built from its own store', async () => {
    const provider = (s: TestServer) => s.server.authMethods.cloud.state.providers.get(s.server.services, accessor);
    expect(first.server.services.store.tableIndex(CONFIG_TABLE)).toBe(second.server.services.store.tableIndex(CONFIG_TABLE));
    const mine = provider(first);
    expect(provider(first)).toBe(mine);
    expect(provider(second)).not.toBe(mine);
    expect((await provider(second).defaultCredentials.get()).accessKeyId).toBe('AKIAFIRST');

    await second.client(rootToken).secrets('POST', 'auth/cloud/config/client', { body: { access_key: 'AKIASECOND', secret_key: 'second-secret' } });
    expect((await provider(second).defaultCredentials.get()).accessKeyId).toBe('AKIASECOND');
    expect(provider(first)).toBe(mine);
    expect((await provider(first).defaultCredentials.get()).accessKeyId).toBe('AKIAFIRST');
  });

  it("a tidy running in one does not hold back the same mount's tidy in the other", async () => {
    const [a, b] = [first, second].map((s) => s.server.authMethods.cloud.state.tidies);
    expect(a.start(first.server.services, accessor, 'identity-accesslist', 0)).toBe(true);
    expect(b.start(second.server.services, accessor, 'identity-accesslist', 0)).toBe(true);
    expect(a.start(first.server.services, accessor, 'identity-accesslist', 0)).toBe(false);
    await Promise.all([a.settled(), b.settled()]);
  });
});
