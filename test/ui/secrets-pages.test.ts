/**
 * The web UI's secrets pages in a real browser (Debian's chromium) against a real `svc server -dev`:
 * a cloud role edited through the form built from its field schema (and the server's refusal shown at
 * its field), a policy refused at its line and then saved, a token made with it (its secret shown
 * once) and revoked by accessor, the KV browser writing and reading a secret whose values stay out of
 * the page until revealed, a limited token seeing no action it may not take, and names that are
 * markup rendered as text.
 */
import { rm } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../../src/api/http/client.js';
import { launchBrowser, type Browser } from '../support/browser.js';
import { makeTempDir } from '../support/server.js';
import { signedIn as signedInAs } from '../support/ui.js';
import { spawnServer, stopServer, type SpawnedServer } from '../support/spawn-server.js';
import { until } from '../support/wait.js';

let srv: SpawnedServer;
let home: string;
let browser: Browser;
let api: ApiClient;
const dialogs: string[] = [];

beforeAll(async () => {
  home = await makeTempDir('svc-ui-secrets-home-');
  [srv, browser] = await Promise.all([spawnServer(['-dev', '-port=0'], { HOME: home }), launchBrowser()]);
  api = new ApiClient({ address: srv.url, token: srv.rootToken });
  browser.context.on('page', (p) => p.on('dialog', (d) => void (dialogs.push(d.message()), d.dismiss())));
  // Installing chromium on a machine without it takes minutes.
}, 600_000);

afterAll(async () => {
  await browser?.close();
  await stopServer(srv);
  if (home) await rm(home, { recursive: true, force: true });
});

async function signedIn(secret = srv.rootToken!): Promise<Page> {
  const page = await signedInAs(browser.context, srv.url, secret);
  // Under the test's own timeout, so a wait that fails names what it waited for.
  page.setDefaultTimeout(10_000);
  return page;
}

const secretsData = async <T>(method: string, path: string, body?: unknown) => (await api.secrets(method, path, body === undefined ? {} : { body }))?.data as T;

describe('the secrets pages', () => {
  it('edit a cloud role through the form its field schema makes, and show a refused value at its field', async () => {
    await api.secrets('POST', 'auth/cloud/role/web', { body: { auth_type: 'iam', bound_iam_principal_arn: ['arn:aws:iam::123456789012:role/web'], resolve_cloud_unique_ids: false } });
    const page = await signedIn();
    await page.click('header nav >> text=Secrets');
    await page.click('[data-testid=secrets-tabs] >> text=cloud/ (cloud)');
    await page.click('[data-testid=cloud-roles] >> text=web');
    await page.waitForSelector('#field-token_ttl');
    // The form is the schema's: the help text and the allowed values come from the server.
    expect(await page.textContent('[data-testid=field-token_type]')).toContain('Type of issued tokens');
    expect(await page.$$eval('#field-token_type option', (os) => os.map((o) => o.textContent))).toEqual(['default', 'service', 'batch']);
    expect(await page.inputValue('#field-bound_iam_principal_arn')).toBe('arn:aws:iam::123456789012:role/web');

    await page.fill('#field-token_ttl', '90m');
    await page.fill('#field-token_policies', 'alpha, beta');
    // Each TTL field the page puts in, with the value it shows: the form is made again only from the answer to the save.
    await page.evaluate(`(() => {
      window.ttlField = document.querySelector('#field-token_ttl');
      window.ttlShown = [];
      new MutationObserver(() => {
        const field = document.querySelector('#field-token_ttl');
        if (field && field !== window.ttlField) {
          window.ttlField = field;
          window.ttlShown.push(field.value);
        }
      }).observe(document.body, { childList: true, subtree: true });
    })()`);
    await page.click('button >> text=Save role');
    await page.waitForSelector('[data-testid=role-saved]');
    const saved = await secretsData<{ token_ttl: number; token_policies: string[]; auth_type: string }>('GET', 'auth/cloud/role/web');
    expect(saved).toMatchObject({ token_ttl: 5400, token_policies: ['alpha', 'beta'], auth_type: 'iam' });
    // The form is filled again from the role as the server now answers it.
    expect(await until(() => page.inputValue('#field-token_ttl'), (v) => v === '5400', 'the saved TTL in the form')).toBe('5400');
    expect(await page.evaluate('window.ttlShown')).toEqual(['5400']);

    await page.fill('#field-token_ttl', 'banana');
    await page.click('button >> text=Save role');
    const refusal = await page.waitForSelector('[data-testid=field-error-token_ttl]');
    expect(await refusal.textContent()).toContain('field "token_ttl" must be a duration');
    expect((await secretsData<{ token_ttl: number }>('GET', 'auth/cloud/role/web')).token_ttl).toBe(5400);
    await page.close();
  });

  it('enable, tune and disable an auth method; create a role with a role tag, deny-list the tag, and configure the client', async () => {
    const page = await signedIn();
    await page.goto(`${srv.url}/ui/secrets/methods`);
    await page.selectOption('#method-type', 'cloud');
    await page.fill('#method-path', 'cloud2');
    await page.fill('#method-description', 'a second cloud');
    await page.click('button >> text=Enable method');
    const row = page.locator('[data-testid=method-cloud2]');
    await row.locator('text=a second cloud').waitFor();
    await page.waitForSelector('[data-testid=secrets-tabs] >> text=cloud2/ (cloud)');

    await row.locator('button >> text=Tune').click();
    await page.fill('#default-ttl-cloud2', '2h');
    await page.click('[data-testid=tune-cloud2] >> text=Save');
    await row.locator('td >> text=2h').waitFor();
    expect(await secretsData<{ default_lease_ttl: number }>('GET', 'sys/auth/cloud2/tune')).toMatchObject({ default_lease_ttl: 7200 });

    await page.click('[data-testid=secrets-tabs] >> text=cloud2/ (cloud)');
    await page.click('button >> text=Create role');
    await page.fill('#role-name', 'tagged');
    await page.selectOption('#field-auth_type', 'ec2');
    await page.fill('#field-bound_ami_id', 'ami-1, ami-2');
    await page.fill('#field-role_tag', 'VaultRole');
    await page.fill('#field-token_policies', 'deployers');
    await page.click('[data-testid=create-role] >> button >> text=Create role');
    await page.waitForSelector('[data-testid=role-name] >> text=tagged');
    expect(await secretsData<{ auth_type: string; bound_ami_id: string[]; role_tag: string }>('GET', 'auth/cloud2/role/tagged')).toMatchObject({ auth_type: 'ec2', bound_ami_id: ['ami-1', 'ami-2'], role_tag: 'VaultRole', token_policies: ['deployers'] });

    // The role reads role tags, so its page makes them, with a form of the tag path's own fields.
    await page.fill('#tag-policies', 'deployers');
    await page.click('button >> text=Make role tag');
    const tag = (await (await page.waitForSelector('[data-testid=role-tag-value]')).textContent())!;
    expect(tag).toMatch(/^v1:.*:r=tagged:.*p=deployers/);
    await api.secrets('POST', `auth/cloud2/roletag-denylist/${tag.split('/').map(encodeURIComponent).join('/')}`);
    await page.goto(`${srv.url}/ui/secrets/methods/cloud2?tab=deny-list`);
    await page.click(`[data-testid=deny-list] >> text=${tag}`);
    await page.waitForSelector('[data-testid=deny-list] dt >> text=expiration_time');
    await page.click('[data-testid=deny-list] >> text=Delete');
    await page.waitForSelector('text=No deny list entries.');
    expect(((await api.secrets('GET', 'auth/cloud2/roletag-denylist', { query: { list: 'true' } }).catch(() => undefined))?.data as { keys?: string[] } | undefined)?.keys ?? []).toEqual([]);

    await page.click('.subtabs >> text=Configuration');
    expect(await page.getAttribute('#field-secret_key', 'type')).toBe('password');
    await page.fill('#field-endpoint', 'http://127.0.0.1:9');
    await page.fill('#field-secret_key', 'not-shown-again');
    await page.click('button >> text=Save configuration');
    await page.waitForSelector('[data-testid=config-saved]');
    expect(await secretsData<{ endpoint: string }>('GET', 'auth/cloud2/config/client')).toMatchObject({ endpoint: 'http://127.0.0.1:9' });
    expect(await page.inputValue('#field-secret_key')).toBe('');

    await page.click('[data-testid=secrets-tabs] >> text=Auth methods');
    // Asked first, with a way back.
    await row.locator('button >> text=Disable').click();
    expect(await page.textContent('[data-testid=disable-cloud2-confirm]')).toContain('Disable cloud2/ and revoke its tokens?');
    await row.locator('button >> text=Cancel').click();
    await row.locator('button >> text=Disable').click();
    await page.click('[data-testid=disable-cloud2-yes]');
    await row.waitFor({ state: 'detached' });
    await page.waitForSelector('[data-testid=secrets-tabs] >> text=cloud2/ (cloud)', { state: 'detached' });
    expect(Object.keys((await api.secrets('GET', 'sys/auth'))!.data as object)).not.toContain('cloud2/');
    await page.close();
  });

  it('show a policy the server refuses at its line, save a good one, make a token with it once, and revoke it by accessor', async () => {
    const page = await signedIn();
    await page.goto(`${srv.url}/ui/secrets/policies`);
    await page.fill('#new-policy-name', 'deployers');
    await page.click('button >> text=Write policy');
    await page.waitForSelector('[data-testid=policy-name] >> text=deployers');
    await page.fill('#policy-text', 'path "secret/data/*" {\n  capabilities = ["read"]\n  = "blue"\n}\n');
    await page.click('button >> text=Save policy');
    await page.waitForSelector('[data-testid=policy-error]');
    expect(await page.textContent('[data-testid=policy-error-at]')).toBe('Line 3');
    expect(await page.textContent('[data-testid=policy-error]')).toContain('line 3, column 3: Expected a name');
    expect((await page.textContent('[data-testid=policy-error-line]'))?.trim()).toBe('3');
    await expect(api.secrets('GET', 'sys/policies/acl/deployers')).rejects.toMatchObject({ statusCode: 404 });

    const good = 'path "secret/data/*" {\n  capabilities = ["read"]\n}\n\nnamespace "default" {\n  policy = "read"\n}\n';
    await page.fill('#policy-text', good);
    await page.click('button >> text=Save policy');
    await page.waitForSelector('[data-testid=policy-saved]');
    expect(await page.locator('[data-testid=policy-error]').count()).toBe(0);
    expect((await secretsData<{ policy: string }>('GET', 'sys/policies/acl/deployers')).policy).toBe(good);

    await page.click('[data-testid=secrets-tabs] >> text=Tokens');
    await page.fill('#token-policies', 'deployers');
    await page.fill('#token-ttl', '1h');
    await page.fill('#token-name', 'ci');
    await page.click('button >> text=Create token');
    const secret = (await (await page.waitForSelector('[data-testid=new-token-secret]')).textContent())!;
    const accessor = (await page.textContent('[data-testid=new-token-accessor]'))!;
    const looked = await secretsData<{ accessor: string; policies: string[]; display_name: string }>('POST', 'auth/token/lookup', { token: secret });
    expect(looked).toMatchObject({ accessor, display_name: 'token-ci' });
    expect(looked.policies).toEqual(expect.arrayContaining(['default', 'deployers']));
    // Once dismissed, the secret is nowhere on the page; the token is listed by its accessor.
    await page.click('button >> text=Done');
    const row = page.locator(`[data-testid="accessor-${accessor}"]`);
    await row.locator('text=token-ci').waitFor();
    expect(await page.textContent('main')).not.toContain(secret);

    await row.locator('button >> text=Revoke').click();
    await row.waitFor({ state: 'detached' });
    await expect(api.secrets('POST', 'auth/token/lookup-accessor', { body: { accessor } })).rejects.toMatchObject({ statusCode: 400 });

    // Past a page of accessors, the rest come on request, each looked up only once shown.
    await Promise.all(Array.from({ length: 50 }, () => api.secrets('POST', 'auth/token/create', { body: { policies: ['deployers'], ttl: '1h' } })));
    const all = ((await api.secrets('GET', 'auth/token/accessors', { query: { list: 'true' } }))!.data as { keys: string[] }).keys;
    await page.reload();
    await page.waitForSelector(`.pager >> text=Show ${Math.min(50, all.length - 50)} more of ${all.length - 50}`);
    expect(await page.locator('[data-testid=accessors] tbody tr').count()).toBe(50);
    await page.click('.pager button');
    await page.waitForSelector('.pager', { state: 'detached' });
    expect(await page.locator('[data-testid=accessors] tbody tr').count()).toBe(all.length);
    await page.close();
  });

  it('write a KV secret, keep its values off the page until revealed, and keep its versions', async () => {
    const page = await signedIn();
    const mountReads: string[] = [];
    page.on('request', (r) => void (new URL(r.url()).pathname === '/v1/sys/internal/ui/mounts' && mountReads.push(r.url())));
    await page.goto(`${srv.url}/ui/secrets`);
    await page.click('[data-testid=secrets-tabs] >> text=secret/ (kv)');
    await page.click('button >> text=Create secret');
    // The KV page is told the engine's version by the frame, which read the mounts once for its tabs.
    expect(mountReads).toHaveLength(1);
    await page.fill('#kv-path', 'app/db');
    await page.fill('[aria-label="Key 1"]', 'password');
    await page.fill('[aria-label="Value 1"]', 'hunter2-first');
    await page.click('button >> text=Save secret');
    await page.waitForSelector('[data-testid=kv-value-password]');
    expect(new URL(page.url()).searchParams.get('path')).toBe('app/db');
    expect(await page.textContent('main')).not.toContain('hunter2-first');
    expect((await secretsData<{ data: Record<string, string> }>('GET', 'secret/data/app/db')).data).toEqual({ password: 'hunter2-first' });

    await page.click('[data-testid=kv-data] >> text=Reveal');
    expect(await page.textContent('[data-testid=kv-value-password]')).toBe('hunter2-first');
    await page.click('[data-testid=kv-data] >> text=Hide');
    expect(await page.textContent('main')).not.toContain('hunter2-first');

    await page.click('button >> text=Write new version');
    await page.fill('[aria-label="Value 1"]', 'hunter2-second');
    await page.click('button >> text=Save new version');
    await page.waitForSelector('[data-testid=kv-version-2] >> text=(latest)');
    expect((await secretsData<{ data: Record<string, string> }>('GET', 'secret/data/app/db')).data).toEqual({ password: 'hunter2-second' });

    // Deleting version 2 leaves its history, and undeleting brings it back.
    await page.click('[data-testid=kv-version-2] >> text=Delete');
    await page.waitForSelector('[data-testid=kv-version-2] >> text=deleted');
    await expect(api.secrets('GET', 'secret/data/app/db')).rejects.toMatchObject({ statusCode: 404 });
    await page.click('[data-testid=kv-version-2] >> text=Undelete');
    await page.waitForSelector('[data-testid=kv-version-2] >> text=live');
    await page.click('[data-testid=kv-version-1] >> text=1');
    await page.waitForSelector('h3 >> text=Version 1 (the latest is 2)');
    await page.click('[data-testid=kv-data] >> text=Reveal');
    expect(await page.textContent('[data-testid=kv-value-password]')).toBe('hunter2-first');

    await page.click('[data-testid=kv-crumbs] >> text=app/');
    await page.waitForSelector('[data-testid=kv-keys] >> text=db');
    await page.close();
  });

  it('browse a version 1 KV engine: write a secret, reveal it, write over it, delete it', async () => {
    await api.secrets('POST', 'sys/mounts/kv1', { body: { type: 'kv', options: { version: '1' } } });
    const page = await signedIn();
    await page.goto(`${srv.url}/ui/secrets`);
    await page.click('[data-testid=secrets-tabs] >> text=kv1/ (kv)');
    await page.waitForSelector('h2 >> text=kv1/ (key/value, version 1)');
    await page.click('button >> text=Create secret');
    await page.fill('#kv-path', 'team/token');
    await page.fill('[aria-label="Key 1"]', 'api');
    await page.fill('[aria-label="Value 1"]', 'v1-value-one');
    await page.click('button >> text=Save secret');
    await page.waitForSelector('[data-testid=kv-value-api]');
    expect(await page.textContent('main')).not.toContain('v1-value-one');
    expect(await secretsData('GET', 'kv1/team/token')).toEqual({ api: 'v1-value-one' });
    await page.click('[data-testid=kv-data] >> text=Reveal');
    expect(await page.textContent('[data-testid=kv-value-api]')).toBe('v1-value-one');

    await page.click('button >> text=Write over');
    await page.fill('[aria-label="Value 1"]', 'v1-value-two');
    await page.click('[data-testid=kv-editor] >> button >> text=Save');
    await page.waitForSelector('text=Write over');
    expect(await page.textContent('main')).not.toContain('v1-value-two');
    expect(await secretsData('GET', 'kv1/team/token')).toEqual({ api: 'v1-value-two' });

    await page.click('button >> text=Delete secret');
    await page.waitForSelector('text=Nothing here yet.');
    expect(new URL(page.url()).searchParams.get('path')).toBe('team/');
    await expect(api.secrets('GET', 'kv1/team/token')).rejects.toMatchObject({ statusCode: 404 });
    await page.close();
  });

  it('show a limited token none of the actions it may not take', async () => {
    await api.secrets('PUT', 'sys/policies/acl/reader', {
      body: { policy: 'path "secret/data/*" { capabilities = ["read"] }\npath "secret/metadata/*" { capabilities = ["read", "list"] }\npath "sys/policies/acl/reader" { capabilities = ["read"] }\nnamespace "default" { policy = "read" }' },
    });
    await api.secrets('POST', 'secret/data/app/db', { body: { data: { password: 'read-only-here' } } });
    const secret = (await api.secrets('POST', 'auth/token/create', { body: { policies: ['reader'], ttl: '1h' } }))!.auth!.client_token as string;
    const page = await signedIn(secret);
    await page.goto(`${srv.url}/ui/secrets`);
    await page.waitForSelector('[data-testid=token-policies] >> text=reader');
    await page.waitForSelector('[data-testid=secrets-tabs][data-permissions=known] >> text=secret/ (kv)');
    expect(await page.$$eval('[data-testid=secrets-tabs] a', (as) => as.map((a) => a.textContent))).toEqual(['Token', 'secret/ (kv)']);

    // Reached by its address, a page shows the server's refusal and none of its actions.
    await page.goto(`${srv.url}/ui/secrets/methods`);
    await page.waitForSelector('.error >> text=permission denied');
    expect(await page.locator('text=Enable method').count()).toBe(0);
    // Its own policy it may read, not write.
    await page.goto(`${srv.url}/ui/secrets/policies/reader`);
    await page.waitForSelector('#policy-text');
    expect(await page.inputValue('#policy-text')).toContain('path "sys/policies/acl/reader"');
    expect(await page.locator('button >> text=Save policy').count()).toBe(0);
    expect(await page.locator('#policy-text').getAttribute('readonly')).not.toBeNull();

    // It reads secrets, and may not write them.
    await page.goto(`${srv.url}/ui/secrets/kv/secret?path=app/db`);
    await page.waitForSelector('[data-testid=kv-value-password]');
    expect(await page.locator('text=Write new version').count()).toBe(0);
    expect(await page.locator('[data-testid=kv-versions] button >> text=Delete').count()).toBe(0);
    await page.goto(`${srv.url}/ui/secrets/kv/secret?path=app/`);
    await page.waitForSelector('[data-testid=kv-keys] >> text=db');
    expect(await page.locator('text=Create secret').count()).toBe(0);

    // Its namespace rule reads jobs and submits none.
    await page.goto(`${srv.url}/ui/jobs`);
    await page.waitForSelector('text=No jobs');
    expect(await page.locator('text=Run job').count()).toBe(0);
    await page.close();

    // The root token sees the same pages' actions.
    const root = await signedIn();
    await root.goto(`${srv.url}/ui/secrets/methods`);
    await root.waitForSelector('[data-testid=auth-methods] >> text=cloud/');
    expect(await root.locator('button >> text=Enable method').count()).toBe(1);
    await root.goto(`${srv.url}/ui/jobs`);
    await root.waitForSelector('text=Run job');
    await root.click('header nav >> text=Secrets');
    await root.waitForSelector('[data-testid=secrets-tabs] >> text=Policies');

    // Signing in with another token in the same document drops what the pages knew of the first.
    await root.click('header .who');
    await root.click('text=Sign out');
    await root.fill('#secret', secret);
    await root.click('button[type=submit]');
    await root.waitForSelector('[data-testid=signed-in]');
    await root.click('header nav >> text=Secrets');
    await root.waitForSelector('[data-testid=token-policies] >> text=reader');
    await root.waitForSelector('[data-testid=secrets-tabs][data-permissions=known] >> text=secret/ (kv)');
    expect(await root.$$eval('[data-testid=secrets-tabs] a', (as) => as.map((a) => a.textContent))).toEqual(['Token', 'secret/ (kv)']);
    await root.click('header nav >> text=Jobs');
    await root.waitForSelector('text=No jobs');
    expect(await root.locator('text=Run job').count()).toBe(0);
    await root.close();
  });

  it('show a token that reads values but not their history the value alone, and the Tokens tab only with its page', async () => {
    await api.secrets('PUT', 'sys/policies/acl/value-reader', {
      body: { policy: 'path "secret/data/*" { capabilities = ["read"] }\npath "auth/token/accessors" { capabilities = ["list"] }' },
    });
    await api.secrets('PUT', 'sys/policies/acl/token-maker', { body: { policy: 'path "auth/token/create" { capabilities = ["create"] }' } });
    await api.secrets('POST', 'secret/data/app/values', { body: { data: { k: 'v1' } } });
    await api.secrets('POST', 'secret/data/app/values', { body: { data: { k: 'v2' } } });
    const token = async (policy: string) => (await api.secrets('POST', 'auth/token/create', { body: { policies: [policy], ttl: '1h' } }))!.auth!.client_token as string;

    const page = await signedIn(await token('value-reader'));
    await page.goto(`${srv.url}/ui/secrets/kv/secret?path=app/values&version=1`);
    await page.waitForSelector('[data-testid=kv-value-k]');
    expect((await page.textContent('h3'))?.trim()).toBe('Version 1');
    // Listing by accessor without sudo is no page of its own: no tab for it.
    await page.goto(`${srv.url}/ui/secrets`);
    await page.waitForSelector('[data-testid=secrets-tabs][data-permissions=known]');
    expect(await page.$$eval('[data-testid=secrets-tabs] a', (as) => as.map((a) => a.textContent))).not.toContain('Tokens');
    await page.close();

    const maker = await signedIn(await token('token-maker'));
    await maker.goto(`${srv.url}/ui/secrets`);
    await maker.click('[data-testid=secrets-tabs] >> text=Tokens');
    await maker.waitForSelector('h2 >> text=Create a token');
    await maker.close();
  });

  it('render names that are markup as text, and refuse them where the server does', async () => {
    const page = await signedIn();
    await page.goto(`${srv.url}/ui/secrets/identity`);
    await page.fill('#create-entity-name', '<b>bold</b> entity');
    await page.fill('#create-entity-policies', 'deployers');
    await page.click('button >> text=Create entity');
    await page.waitForSelector('[data-testid=entities] >> text=<b>bold</b> entity');
    expect(await page.locator('[data-testid=entities] b').count()).toBe(0);

    await page.click('.subtabs >> text=Aliases');
    await page.selectOption('#create-alias-canonical_id', { label: '<b>bold</b> entity' });
    await page.selectOption('#create-alias-mount_accessor', { label: 'cloud/ (cloud)' });
    await page.fill('#create-alias-name', '<i>alias</i>');
    await page.click('button >> text=Create alias');
    await page.waitForSelector('[data-testid=aliases] >> text=<i>alias</i>');
    expect(await page.locator('[data-testid=aliases] i, [data-testid=aliases] b').count()).toBe(0);
    await page.click('[data-testid=aliases] >> text=Delete');
    expect(await page.textContent('[data-testid=aliases] [role=group]')).toContain('Delete this alias?');
    await page.click('[data-testid=aliases] [data-testid$=-yes]');
    await page.waitForSelector('text=No aliases.');

    await page.click('.subtabs >> text=Groups');
    await page.fill('#create-group-name', '<b>group</b>');
    await page.click('button >> text=Create group');
    await page.waitForSelector('[data-testid=groups] >> text=<b>group</b>');
    expect(await page.locator('[data-testid=groups] b').count()).toBe(0);
    await page.click('[data-testid=groups] >> text=Delete');
    await page.click('[data-testid=groups] [data-testid$=-yes]');
    await page.waitForSelector('text=No groups.');
    await page.click('.subtabs >> text=Entities');
    await page.click('[data-testid=entities] >> text=Delete');
    expect(await page.textContent('[data-testid=entities] [role=group]')).toContain('Delete entity <b>bold</b> entity?');
    await page.click('[data-testid=entities] [data-testid$=-yes]');
    await page.waitForSelector('text=No entities.');

    // A policy cannot be named with markup: the server refuses the name, and says so as text.
    const markup = '<img src=x onerror=alert(1)>';
    await page.goto(`${srv.url}/ui/secrets/policies`);
    await page.fill('#new-policy-name', markup);
    await page.click('button >> text=Write policy');
    await page.waitForSelector('#policy-text');
    expect(await page.textContent('[data-testid=policy-name]')).toBe(markup.toLowerCase());
    await page.fill('#policy-text', 'namespace "default" { policy = "read" }');
    await page.click('button >> text=Save policy');
    await page.waitForSelector('[data-testid=policy-error] >> text=is invalid');
    expect(await page.locator('img').count()).toBe(0);
    expect(((await api.secrets('GET', 'sys/policies/acl', { query: { list: 'true' } }))!.data as { keys: string[] }).keys).not.toContain(markup.toLowerCase());
    expect(dialogs).toEqual([]);
    await page.close();
  });

  it('format a messy policy into the layout `svc policy fmt` writes, mark the line of one that does not parse, and offer Format only to a token that may', async () => {
    const page = await signedIn();
    await page.goto(`${srv.url}/ui/secrets/policies/formatted`);
    await page.waitForSelector('[data-testid=policy-name] >> text=formatted');
    await page.fill('#policy-text', 'path "secret/data/*"   {\ncapabilities=["read","list"]\n}\n\n\nnamespace "default" {\n    policy="read"\n  capabilities = [ "submit-job" ]\n}');
    await page.click('button >> text=Format');
    const formatted = 'path "secret/data/*" {\n  capabilities = ["read", "list"]\n}\n\nnamespace "default" {\n  policy       = "read"\n  capabilities = ["submit-job"]\n}\n';
    // Run in the page, whose DOM this file's types do not know.
    await page.waitForFunction((want) => (globalThis as unknown as { document: { querySelector(s: string): { value: string } } }).document.querySelector('#policy-text').value === want, formatted);
    await expect(api.secrets('GET', 'sys/policies/acl/formatted')).rejects.toMatchObject({ statusCode: 404 });
    await page.click('button >> text=Save policy');
    await page.waitForSelector('[data-testid=policy-saved]');
    expect((await secretsData<{ policy: string }>('GET', 'sys/policies/acl/formatted')).policy).toBe(formatted);

    const broken = 'path "secret/data/*" {\n  capabilities = ["read"]\n  = "blue"\n}\n';
    await page.fill('#policy-text', broken);
    await page.click('button >> text=Format');
    await page.waitForSelector('[data-testid=policy-error]');
    expect(await page.textContent('[data-testid=policy-error-at]')).toBe('Line 3');
    expect(await page.textContent('[data-testid=policy-error]')).toContain('failed to parse policy "formatted": line 3, column 3: Expected a name');
    expect((await page.textContent('[data-testid=policy-error-line]'))?.trim()).toBe('3');
    expect(await page.inputValue('#policy-text')).toBe(broken);
    await page.close();

    // Without the default policy's grant, the editor saves and offers no Format.
    await api.secrets('PUT', 'sys/policies/acl/editor', {
      body: { policy: 'path "sys/policies/acl/*" { capabilities = ["read", "update"] }\npath "sys/capabilities-self" { capabilities = ["update"] }' },
    });
    const editor = (await api.secrets('POST', 'auth/token/create', { body: { policies: ['editor'], no_default_policy: true, ttl: '1h' } }))!.auth!.client_token as string;
    const limited = await signedIn(editor);
    await limited.goto(`${srv.url}/ui/secrets/policies/formatted`);
    await limited.waitForSelector('button >> text=Save policy');
    expect(await limited.locator('button >> text=Format').count()).toBe(0);
    await limited.close();
  });
});
