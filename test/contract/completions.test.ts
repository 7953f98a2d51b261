/**
 * The committed bash completion script, run by bash the way readline would call it: it must complete
 * every command's words and flags, flag choices, and ask the server (through `svc __complete`) for values
 * only the server knows. Every argument and flag whose value the server knows declares its kind. zsh and
 * fish run their scripts in test/contract/completion-shells.test.ts; each kind's values in
 * test/e2e/complete-kinds-cli.test.ts.
 */
import net from 'node:net';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fullRegistry } from '../../src/cli/registry.js';
import { FLAG_SETS } from '../../src/cli/flags/common.js';
import type { CommandSpec, FlagSpec } from '../../src/cli/define.js';
import { SERVER_KINDS, type ServerKind } from '../../src/shared/completion-kinds.js';
import { AUTH_METHOD_TYPES } from '../../src/secrets/auth/backends.js';
import { run } from '../../src/main.js';
import { REPO, SVC_BIN, startTestServer, type TestServer } from '../support/server.js';
import { completeInBash as complete, WORDBREAKS_WITHOUT_EQUALS } from '../support/shells.js';

const { commands, groups } = await fullRegistry();
const visible = commands.filter((c) => !c.path[0].startsWith('__'));
const flagsOf = (c: CommandSpec) => [...(c.flagSets ?? []).flatMap((s) => FLAG_SETS[s].flags), ...(c.flags ?? [])].filter((f) => !f.hidden);

const SERVER_KIND_NAMES = Object.keys(SERVER_KINDS) as ServerKind[];

/**
 * The server-known kind an argument holds, judged by its name and its command's words: `job`, `eval`,
 * `service` ...; `name` in a group named after the kind (`policy read NAME`, `auth cloud role tag NAME`);
 * `path` of `auth tune|disable`; the secrets API `path` of read, write, list, delete, patch and path-help;
 * the IDs of the identity commands; the entries of the cloud mount's lists.
 */
function kindOfArg(c: CommandSpec, name: string): ServerKind | undefined {
  const words = c.path.join(' ');
  const group = c.path.at(-2);
  if (['job', 'alloc', 'node', 'deployment', 'eval', 'service'].includes(name)) return name as ServerKind;
  if (name === 'name' && (group === 'policy' || group === 'namespace' || group === 'role')) return group;
  if (name === 'path' && (words === 'auth tune' || words === 'auth disable')) return 'mount';
  if (name === 'path' && ['read', 'write', 'list', 'delete', 'patch', 'path-help'].includes(words)) return 'secrets-path';
  if (name === 'id' && group === 'entity') return 'entity';
  if (name === 'id' && group === 'entity-alias') return 'entity-alias';
  const cloudLists: Record<string, ServerKind> = { cert_name: 'certificate', account_id: 'sts-account', instance_id: 'accesslist' };
  if (cloudLists[name]) return cloudLists[name];
  if (name === 'tag' && words !== 'auth cloud denylist add') return 'denylist';
  return undefined;
}

/**
 * The server-known kind a flag's value holds, judged by its name: policies, jobs, allocations,
 * namespaces, entities and aliases, mount accessors; -path of `login` (any auth mount) and of the
 * `auth cloud` commands (a cloud mount). A new name such as `-name` of `identity entity create` is not.
 */
function kindOfFlag(c: CommandSpec, f: FlagSpec): ServerKind | undefined {
  if (f.type === 'bool') return undefined;
  const byName: Record<string, ServerKind> = {
    policy: 'policy',
    policies: 'policy',
    'token-policies': 'policy',
    job: 'job',
    alloc: 'alloc',
    namespace: 'namespace',
    'entity-id': 'entity',
    'canonical-id': 'entity',
    'alias-id': 'entity-alias',
    'mount-accessor': 'accessor',
    'alias-mount-accessor': 'accessor',
  };
  if (byName[f.name]) return byName[f.name];
  if (f.name === 'path' && c.path[0] === 'login') return 'mount';
  if (f.name === 'path' && c.path[0] === 'auth' && c.path[1] === 'cloud') return 'cloud-mount';
  if (f.name === 'name' && ['identity entity read', 'identity entity delete', 'identity lookup entity'].includes(c.path.join(' '))) return 'entity-name';
  return undefined;
}

describe('completion kinds', () => {
  it('every argument that holds a value the server knows declares its kind', () => {
    const args = visible.flatMap((c) => (c.args ?? []).map((a) => ({ c, a, kind: kindOfArg(c, a.name) }))).filter((x) => x.kind);
    expect(args.length).toBeGreaterThan(0);
    for (const { c, a, kind } of args) expect(a.complete, `svc ${c.path.join(' ')} ${a.name.toUpperCase()}`).toBe(kind);
  });

  it('every flag that holds a value the server knows declares its kind', () => {
    const flags = visible.flatMap((c) => flagsOf(c).map((f) => ({ c, f, kind: kindOfFlag(c, f) }))).filter((x) => x.kind);
    expect(flags.length).toBeGreaterThan(0);
    for (const { c, f, kind } of flags) expect(f.complete, `svc ${c.path.join(' ')} -${f.name}`).toBe(kind);
  });

  it('every kind svc __complete resolves is declared by some argument or flag, and nothing else is declared', () => {
    const declared = new Set(
      visible.flatMap((c) => [
        ...flagsOf(c).map((f) => f.complete),
        ...(c.args ?? []).flatMap((a) => [a.complete, ...Object.values(a.pairs ?? {}).map((p) => p.complete)]),
      ]),
    );
    for (const kind of SERVER_KIND_NAMES) expect(declared.has(kind), kind).toBe(true);
    const known = new Set<string | undefined>([undefined, 'file', 'dir', ...SERVER_KIND_NAMES]);
    for (const kind of declared) expect(known.has(kind), String(kind)).toBe(true);
  });

  it('svc auth enable offers the auth method types the server mounts', () => {
    const enable = visible.find((c) => c.path.join(' ') === 'auth enable')!;
    expect([...(enable.args?.[0].choices ?? [])].sort()).toEqual([...AUTH_METHOD_TYPES].sort());
  });
});

describe('bash completion', () => {
  it('completes the subcommands of the root and of every group', async () => {
    const prefixes = [[], ...groups.map((g) => g.path)];
    const answers = await complete(prefixes.map((p) => ['svc', ...p, ''].join(' ')));
    prefixes.forEach((p, i) => {
      const children = [...new Set([...groups, ...visible].filter((c) => c.path.length === p.length + 1 && p.every((w, j) => c.path[j] === w)).map((c) => c.path[p.length]))];
      expect(answers[i].sort(), `svc ${p.join(' ')}`).toEqual(children.sort());
    });
  });

  it('completes a partial word to the matching subcommand', async () => {
    const [answer] = await complete([`svc ${visible[0].path[0].slice(0, -1)}`]);
    expect(answer).toContain(visible[0].path[0]);
  });

  it('offers every flag of every command, with = for flags that take a value', async () => {
    const answers = await complete(visible.map((c) => `svc ${c.path.join(' ')} -`));
    visible.forEach((c, i) => {
      const expected = flagsOf(c).map((f) => `-${f.name}${f.type === 'bool' ? '' : '='}`);
      expect(answers[i].sort(), `svc ${c.path.join(' ')}`).toEqual([...new Set(expected)].sort());
    });
  });

  it('offers the choices of every flag that has them, after = or as the next word', async () => {
    const cases = visible.flatMap((c) => flagsOf(c).filter((f) => f.choices && f.choices.length > 0).map((f) => ({ c, f })));
    expect(cases.length).toBeGreaterThan(0);
    const lines = cases.flatMap(({ c, f }) => [`svc ${c.path.join(' ')} -${f.name}=`, `svc ${c.path.join(' ')} -${f.name} `]);
    const answers = await complete(lines);
    cases.forEach(({ f }, i) => {
      expect(answers[2 * i].sort(), lines[2 * i]).toEqual([...f.choices!].sort());
      expect(answers[2 * i + 1].sort(), lines[2 * i + 1]).toEqual([...f.choices!].sort());
    });
  });

  it('offers the shells after svc completion', async () => {
    const [all, some] = await complete(['svc completion ', 'svc completion z']);
    expect(all.sort()).toEqual(['bash', 'fish', 'zsh']);
    expect(some).toEqual(['zsh']);
  });

  it('keeps the flag in the word when "=" does not break words', async () => {
    const withChoices = visible.find((c) => flagsOf(c).some((f) => f.name === 'format' && f.choices?.includes('json')))!;
    const [answer] = await complete([`svc ${withChoices.path.join(' ')} -format=js`], { wordbreaks: WORDBREAKS_WITHOUT_EQUALS });
    expect(answer).toEqual(['-format=json']);
  });
});

describe('completion values from the server', () => {
  let srv: TestServer;
  beforeAll(async () => {
    srv = await startTestServer();
  });
  afterAll(async () => {
    await srv?.close();
  });

  it('svc __complete lists policies and namespaces by prefix', async () => {
    const policies = await srv.cli(['__complete', 'policy', '']);
    expect(policies.code).toBe(0);
    expect(policies.stdout.split('\n')).toContain('default');
    const some = await srv.cli(['__complete', 'policy', 'def']);
    expect(some.stdout).toBe('default\n');
    const namespaces = await srv.cli(['__complete', 'namespace', '--', 'd']);
    expect(namespaces.stdout).toBe('default\n');
  });

  it('svc __complete prints nothing on an error', async () => {
    const noServer = await srv.cli(['__complete', 'policy', ''], { env: { SVC_ADDR: 'http://127.0.0.1:1' } });
    expect(noServer).toMatchObject({ code: 0, stdout: '' });
    const badToken = await srv.cli(['__complete', 'namespace', ''], { token: 'not-a-token' });
    expect(badToken).toMatchObject({ code: 0, stdout: '' });
    const unknownKind = await srv.cli(['__complete', 'no-such-kind', '']);
    expect(unknownKind).toMatchObject({ code: 0, stdout: '' });
  });

  it('the bash script completes an argument by its kind, skipping flags and their values', async () => {
    const readsPolicy = visible.find((c) => c.args?.[0]?.complete === 'policy' && flagsOf(c).some((f) => f.name === 'namespace'))!;
    expect(readsPolicy).toBeDefined();
    const env = { SVC_ADDR: srv.url, SVC_TOKEN: srv.rootToken, NO_COLOR: '1' };
    // `-namespace default` takes the next word as its value, so `de` is still the first argument.
    const [policies, none] = await complete(
      [`${SVC_BIN} ${readsPolicy.path.join(' ')} -namespace default de`, `${SVC_BIN} ${readsPolicy.path.join(' ')} -no-color de`],
      { env },
    );
    expect(policies).toEqual(['default']);
    expect(none).toEqual(['default']);
    const takesFile = visible.find((c) => c.args?.[1]?.complete === 'file')!;
    expect(takesFile).toBeDefined();
    const [files] = await complete([`svc ${takesFile.path.join(' ')} some-name ${path.join(REPO, 'package.j')}`]);
    expect(files).toEqual([path.join(REPO, 'package.json')]);
  });

  it('svc __complete role lists the roles of auth/cloud, or of the mount -path names', async () => {
    const c = srv.client();
    for (const [mount, roles] of [['cloud', ['web', 'worker']], ['cloud-ci', ['ci-runner']]] as const) {
      await c.secrets('POST', `sys/auth/${mount}`, { body: { type: 'cloud' } });
      for (const role of roles) await c.secrets('POST', `auth/${mount}/role/${role}`, { body: { auth_type: 'ec2', bound_account_id: '123456789012' } });
    }
    expect(await srv.cli(['__complete', 'role', ''])).toMatchObject({ code: 0, stdout: 'web\nworker\n' });
    expect(await srv.cli(['__complete', 'role', 'wo'])).toMatchObject({ code: 0, stdout: 'worker\n' });
    expect(await srv.cli(['__complete', '-path=cloud-ci', 'role', ''])).toMatchObject({ code: 0, stdout: 'ci-runner\n' });
    expect(await srv.cli(['__complete', '-path=no-such-mount', 'role', ''])).toMatchObject({ code: 0, stdout: '' });

    // The scripts hand the command's -path (either spelling) to __complete.
    const env = { SVC_ADDR: srv.url, SVC_TOKEN: srv.rootToken, NO_COLOR: '1' };
    const answers = await complete(
      [
        `${SVC_BIN} auth cloud role read `,
        `${SVC_BIN} auth cloud role read -path=cloud-ci `,
        `${SVC_BIN} auth cloud role delete -path cloud-ci c`,
        `${SVC_BIN} auth cloud role tag -policies=default w`,
      ],
      { env },
    );
    expect(answers).toEqual([['web', 'worker'], ['ci-runner'], ['ci-runner'], ['web', 'worker']]);
  });

  it('svc __complete prints nothing and exits 0 when the server accepts but never answers', async () => {
    const sockets = new Set<net.Socket>();
    const silent = net.createServer((socket) => {
      sockets.add(socket);
      socket.on('error', () => sockets.delete(socket));
    });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as net.AddressInfo;
    try {
      const results = await Promise.all(SERVER_KIND_NAMES.map((kind) => srv.cli(['__complete', kind, ''], { env: { SVC_ADDR: `http://127.0.0.1:${port}` } })));
      // The top of the secrets paths is known without a server.
      const offline = (kind: ServerKind) => (kind === 'secrets-path' ? 'auth/\nidentity/\nsys/\n' : '');
      results.forEach((res, i) => expect(res, SERVER_KIND_NAMES[i]).toMatchObject({ code: 0, stdout: offline(SERVER_KIND_NAMES[i]), stderr: '' }));
      expect(sockets.size).toBeGreaterThan(0);
    } finally {
      for (const s of sockets) s.destroy();
      await new Promise((resolve) => silent.close(resolve));
    }
  });

  it('the bash script completes -namespace= from the server', async () => {
    const withNamespace = visible.find((c) => flagsOf(c).some((f) => f.name === 'namespace' && f.complete === 'namespace'))!;
    const [answer] = await complete([`${SVC_BIN} ${withNamespace.path.join(' ')} -namespace=de`], {
      env: { SVC_ADDR: srv.url, SVC_TOKEN: srv.rootToken, NO_COLOR: '1' },
    });
    expect(answer).toEqual(['default']);
  });

  it('the bash script passes the namespace and server of the line on to svc __complete', async () => {
    const c = srv.client();
    await c.scheduler('PUT', '/v1/namespace/team-a', { body: { Name: 'team-a' } });
    for (const [id, namespace] of [['web', 'default'], ['worker', 'team-a']]) {
      await c.scheduler('POST', '/v1/jobs', { body: { Job: { ID: id, Type: 'batch', Datacenters: ['no-such-dc'], TaskGroups: [{ Name: 'g', Tasks: [{ Name: 't', Driver: 'mock' }] }] } }, query: { namespace } });
    }
    const env = { SVC_ADDR: 'http://127.0.0.1:1', SVC_TOKEN: srv.rootToken, NO_COLOR: '1' };
    const answers = await complete(
      [
        `${SVC_BIN} job status -address=${srv.url} `,
        `${SVC_BIN} job status -address ${srv.url} -namespace=team-a `,
        `${SVC_BIN} job status -address=${srv.url} -namespace team-a w`,
        `${SVC_BIN} job status -address=${srv.url} -namespace=* w`,
        `${SVC_BIN} job status `,
      ],
      { env },
    );
    expect(answers).toEqual([['web'], ['worker'], ['worker'], ['web', 'worker'], []]);
  });

  it('the bash script completes the value of a K=V argument, whether or not "=" breaks words', async () => {
    const c = srv.client();
    await c.secrets('POST', 'sys/auth/cloud-login', { body: { type: 'cloud' } });
    await c.secrets('POST', 'auth/cloud-login/role/dev-ec2', { body: { auth_type: 'ec2', bound_account_id: '123456789012' } });
    const env = { SVC_ADDR: srv.url, SVC_TOKEN: srv.rootToken, NO_COLOR: '1' };
    const lines = [
      `${SVC_BIN} login -method=cloud type=`,
      `${SVC_BIN} login -method=cloud document=p`,
      `${SVC_BIN} login -method=cloud -path=cloud-login role=`,
      `${SVC_BIN} login nonce=`,
    ];
    expect(await complete(lines, { env })).toEqual([['iam', 'ec2'], ['pkcs7'], ['dev-ec2'], []]);
    expect(await complete(lines, { env, wordbreaks: WORDBREAKS_WITHOUT_EQUALS })).toEqual([['type=iam', 'type=ec2'], ['document=pkcs7'], ['role=dev-ec2'], []]);
  });

  it('the bash script completes a value holding ":" as readline replaces the word', async () => {
    await srv.client().scheduler('POST', '/v1/jobs', { body: { Job: { ID: 'batch:nightly', Type: 'batch', Datacenters: ['no-such-dc'], TaskGroups: [{ Name: 'g', Tasks: [{ Name: 't', Driver: 'mock' }] }] } } });
    const env = { SVC_ADDR: srv.url, SVC_TOKEN: srv.rootToken, NO_COLOR: '1' };
    // With ":" in COMP_WORDBREAKS (the default) readline replaces only what follows the last ":".
    expect(await complete([`${SVC_BIN} job status batch:n`, `${SVC_BIN} job status bat`], { env })).toEqual([['nightly'], ['batch:nightly']]);
    expect(await complete([`${SVC_BIN} job status batch:n`], { env, wordbreaks: WORDBREAKS_WITHOUT_EQUALS })).toEqual([['batch:nightly']]);
  });
});

describe('svc completion', () => {
  async function runCompletion(shell: string) {
    const stdout = new PassThrough();
    const stderr = new PassThrough();
    let out = '';
    let err = '';
    stdout.on('data', (d: Buffer) => (out += d.toString()));
    stderr.on('data', (d: Buffer) => (err += d.toString()));
    const stdin = new PassThrough();
    stdin.end();
    const code = await run(['completion', shell], { stdin, stdout, stderr }, { HOME: '/nonexistent' });
    return { code, out, err };
  }

  it.each(['bash', 'zsh', 'fish'])('prints the committed %s script', async (shell) => {
    const { readFile } = await import('node:fs/promises');
    const res = await runCompletion(shell);
    expect(res.code).toBe(0);
    expect(res.out).toBe(await readFile(path.join(REPO, `completions/svc.${shell}`), 'utf8'));
  });

  it('refuses an unknown shell with a usage error', async () => {
    const res = await runCompletion('powershell');
    expect(res.code).toBe(1);
    expect(res.out).toBe('');
    expect(res.err).toContain('unknown shell "powershell"');
  });
});
