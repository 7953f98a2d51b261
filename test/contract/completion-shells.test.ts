/**
 * The committed zsh and fish completion scripts loaded in real zsh and fish: what a TAB offers for
 * command words, flags, a flag's fixed choices, a K=V argument, and values the server knows, with the
 * line's -namespace and -path passed on; login methods and secrets paths in bash, zsh and fish. `svc completion <TAB>` offers the three shells in bash, zsh and
 * fish. The shells are installed from Debian's packages when missing (test/support/shells.ts); a shell
 * that cannot be installed has its tests skipped, with the reason logged.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fullRegistry } from '../../src/cli/registry.js';
import { FLAG_SETS } from '../../src/cli/flags/common.js';
import { isHidden } from '../../src/cli/docs/man.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { completeInBash, completeInFish, completeInZsh, ensureShells, type CompleteOptions } from '../support/shells.js';

const shells = ensureShells(['zsh', 'fish']);
const { commands, groups } = await fullRegistry();

const sorted = (list: string[]) => [...list].sort();

let srv: TestServer;
beforeAll(async () => {
  srv = await startTestServer({ client: false });
  const c = srv.client();
  await c.scheduler('PUT', '/v1/namespace/team-a', { body: { Name: 'team-a' } });
  const job = (id: string) => ({ ID: id, Type: 'batch', Datacenters: ['no-such-dc'], TaskGroups: [{ Name: 'g', Tasks: [{ Name: 't', Driver: 'mock' }] }] });
  await c.scheduler('POST', '/v1/jobs', { body: { Job: job('web') } });
  await c.scheduler('POST', '/v1/jobs', { body: { Job: job('worker') }, query: { namespace: 'team-a' } });
  await c.secrets('POST', 'sys/auth/cloud-ci', { body: { type: 'cloud' } });
  await c.secrets('POST', 'auth/cloud-ci/role/ci-runner', { body: { auth_type: 'ec2', bound_account_id: '123456789012' } });
});
afterAll(async () => srv?.close());

const serverEnv = (): CompleteOptions => ({ env: { SVC_ADDR: srv.url, SVC_TOKEN: srv.rootToken, NO_COLOR: '1' } });

const SHELLS = {
  zsh: {
    complete: completeInZsh,
    /** zsh sets aside what precedes the value (compset -P) and offers the value alone */
    value: (_prefix: string, v: string) => v,
  },
  fish: {
    complete: completeInFish,
    /** fish offers the whole word */
    value: (prefix: string, v: string) => `${prefix}${v}`,
  },
} as const;

describe.each(['zsh', 'fish'] as const)('%s completion', (shell) => {
  const { complete, value } = SHELLS[shell];

  it.skipIf(!shells[shell])('offers command words, every flag of a command, and a flag’s fixed choices', async () => {
    const jobStatus = commands.find((c) => c.path.join(' ') === 'job status')!;
    const flags = [...(jobStatus.flagSets ?? []).flatMap((s) => FLAG_SETS[s].flags), ...(jobStatus.flags ?? [])].filter((f) => !f.hidden);
    const roots = new Set([...groups, ...commands].filter((c) => !isHidden(c)).map((c) => c.path[0]));
    const [root, job, flagList, afterEquals, nextWord] = await complete(['svc ', 'svc job st', 'svc job status -', 'svc job status -format=', 'svc job status -format ']);
    expect(sorted(root)).toEqual(sorted([...roots]));
    expect(sorted(job)).toEqual(['status', 'stop']);
    expect(sorted(flagList)).toEqual(sorted([...new Set(flags.map((f) => `-${f.name}${f.type === 'bool' ? '' : '='}`))]));
    expect(sorted(afterEquals)).toEqual(['json', 'table', 'yaml'].map((v) => value('-format=', v)));
    expect(sorted(nextWord)).toEqual(['json', 'table', 'yaml']);
  });

  it.skipIf(!shells[shell])('offers values from the server, from the namespace and mount the line names', async () => {
    const answers = await complete(
      [
        'svc policy read de',
        'svc job status ',
        'svc job status -namespace=team-a ',
        'svc job status -namespace team-a w',
        'svc job status -namespace=te',
        'svc auth cloud role read -path=cloud-ci ',
        'svc login -method=cloud -path cloud-ci role=',
        'svc login -method=cloud type=',
      ],
      serverEnv(),
    );
    expect(answers.map(sorted)).toEqual([
      ['default'],
      ['web'],
      ['worker'],
      ['worker'],
      [value('-namespace=', 'team-a')],
      ['ci-runner'],
      [value('role=', 'ci-runner')],
      sorted(['ec2', 'iam'].map((v) => value('type=', v))),
    ]);
  });

  it.skipIf(!shells[shell])('offers nothing from the server when none answers', async () => {
    const [answer] = await complete(['svc job status '], { env: { SVC_ADDR: 'http://127.0.0.1:1' } });
    expect(answer).toEqual([]);
  });
});

describe('login methods and secrets paths', () => {
  const drivers = { bash: completeInBash, zsh: completeInZsh, fish: completeInFish };
  const installed = { bash: true, ...shells };
  /** bash (readline breaks the word at "=") and zsh offer a flag's value alone; fish the whole word */
  const flagValue = (shell: keyof typeof drivers, prefix: string, v: string) => (shell === 'fish' ? `${prefix}${v}` : v);

  for (const shell of ['bash', 'zsh', 'fish'] as const) {
    it.skipIf(!installed[shell])(`${shell} offers the login methods after -method=`, async () => {
      const [methods] = await drivers[shell](['svc login -method=']);
      expect(sorted(methods)).toEqual(['cloud', 'token'].map((v) => flagValue(shell, '-method=', v)));
    });

    it.skipIf(!installed[shell])(`${shell} offers secrets paths a segment at a time: the auth mounts, their paths, and the names under them`, async () => {
      const [roots, mounts, mount, under, roles, tokenPaths] = await drivers[shell](
        ['svc read ', 'svc read auth/', 'svc read auth/cl', 'svc list auth/cloud-ci/con', 'svc delete auth/cloud-ci/role/', 'svc write auth/token/create'],
        serverEnv(),
      );
      expect(sorted(roots)).toEqual(['auth/', 'identity/', 'sys/']);
      expect(sorted(mounts)).toEqual(['auth/cloud-ci/', 'auth/token/']);
      expect(mount).toEqual(['auth/cloud-ci/']);
      expect(under).toEqual(['auth/cloud-ci/config/']);
      expect(roles).toEqual(['auth/cloud-ci/role/ci-runner']);
      expect(sorted(tokenPaths)).toEqual(['auth/token/create', 'auth/token/create-orphan', 'auth/token/create/']);
    });

    it.skipIf(!installed[shell])(`${shell} offers the top of the secrets paths without a server`, async () => {
      const [roots, auth] = await drivers[shell](['svc write ', 'svc patch au'], { env: { SVC_ADDR: 'http://127.0.0.1:1' } });
      expect(sorted(roots)).toEqual(['auth/', 'identity/', 'sys/']);
      expect(auth).toEqual(['auth/']);
    });
  }
});

describe('svc completion <TAB>', () => {
  const drivers = { bash: completeInBash, zsh: completeInZsh, fish: completeInFish };
  const installed = { bash: true, ...shells };
  for (const shell of ['bash', 'zsh', 'fish'] as const) {
    it.skipIf(!installed[shell])(`offers bash, zsh and fish in ${shell}`, async () => {
      const [all, some] = await drivers[shell](['svc completion ', 'svc completion z']);
      expect(sorted(all)).toEqual(['bash', 'fish', 'zsh']);
      expect(some).toEqual(['zsh']);
    });
  }
});
