/**
 * The committed bash completion script, run by bash the way readline would call it: it must complete
 * every command's words and flags, flag choices, and ask the server (through `svc __complete`) for values
 * only the server knows. zsh and fish run their scripts too when they are installed.
 */
import { spawn, spawnSync } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fullRegistry } from '../../src/cli/registry.js';
import { FLAG_SETS } from '../../src/cli/flags/common.js';
import type { CommandSpec } from '../../src/cli/define.js';
import { run } from '../../src/main.js';
import { REPO, SVC_BIN, startTestServer, type TestServer } from '../support/server.js';

const SCRIPT = path.join(REPO, 'completions/svc.bash');
/** readline's default, as bash source; the script must work whether or not "=" breaks words. */
const WORDBREAKS = `$' \\t\\n"\\'><=;|&(:'`;
const WORDBREAKS_WITHOUT_EQUALS = `$' \\t\\n'`;

/** Completes each line (cursor at the end) and answers the candidates per line. */
function complete(lines: string[], opts: { env?: Record<string, string>; wordbreaks?: string } = {}): Promise<string[][]> {
  const driver = [
    `source ${JSON.stringify(SCRIPT)}`,
    `COMP_WORDBREAKS=${opts.wordbreaks ?? WORDBREAKS}`,
    'while IFS= read -r line; do',
    '  COMP_LINE=$line; COMP_POINT=${#line}; COMPREPLY=()',
    '  _svc',
    `  (IFS=$'\\t'; printf '%s\\n' "\${COMPREPLY[*]}")`,
    'done',
  ].join('\n');
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['--norc', '--noprofile', '-c', driver], { env: { PATH: process.env.PATH, HOME: '/nonexistent', ...opts.env } });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0 || err !== '') reject(new Error(`bash exited ${code}: ${err}`));
      else resolve(out.split('\n').slice(0, lines.length).map((l) => (l === '' ? [] : l.split('\t'))));
    });
    child.stdin.end(lines.map((l) => `${l}\n`).join(''));
  });
}

const { commands, groups } = await fullRegistry();
const visible = commands.filter((c) => !c.path[0].startsWith('__'));
const flagsOf = (c: CommandSpec) => [...(c.flagSets ?? []).flatMap((s) => FLAG_SETS[s].flags), ...(c.flags ?? [])].filter((f) => !f.hidden);

/** The kinds `svc __complete` resolves from the server. */
const SERVER_KINDS = ['job', 'alloc', 'node', 'policy', 'namespace', 'deployment', 'role'] as const;

/**
 * The server-known kind an argument holds, judged by its name: `job`, `alloc` ... or `name` in a group
 * named after the kind (`policy read NAME`, `namespace status NAME`, `auth cloud role tag NAME`).
 */
function kindOfArg(c: CommandSpec, name: string): string | undefined {
  if ((SERVER_KINDS as readonly string[]).includes(name)) return name;
  const group = c.path.at(-2);
  if (name === 'name' && group && (SERVER_KINDS as readonly string[]).includes(group)) return group;
  return undefined;
}

/** Runs `shell` with `args` when it is installed; answers undefined (after saying why) when it is not. */
function runShellIfInstalled(shell: string, args: string[]): { stdout: string; stderr: string; status: number | null } | undefined {
  if (spawnSync('sh', ['-c', `command -v ${shell}`]).status !== 0) {
    console.warn(`${shell} is not installed: its completion script was not run`);
    return undefined;
  }
  const res = spawnSync(shell, args, { encoding: 'utf8', env: { PATH: process.env.PATH, HOME: '/nonexistent' } });
  return { stdout: res.stdout, stderr: res.stderr, status: res.status };
}

describe('completion kinds', () => {
  it('every argument that holds a job, allocation, node, policy, namespace, deployment or role declares that kind', () => {
    const args = commands.flatMap((c) => (c.args ?? []).map((a) => ({ c, a, kind: kindOfArg(c, a.name) }))).filter((x) => x.kind);
    expect(args.length).toBeGreaterThan(0);
    for (const { c, a, kind } of args) expect(a.complete, `svc ${c.path.join(' ')} ${a.name.toUpperCase()}`).toBe(kind);
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
      for (const kind of SERVER_KINDS) {
        const res = await srv.cli(['__complete', kind, ''], { env: { SVC_ADDR: `http://127.0.0.1:${port}` } });
        expect(res, kind).toMatchObject({ code: 0, stdout: '', stderr: '' });
      }
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
});

describe('zsh and fish scripts', () => {
  it('zsh offers the shells after svc completion', () => {
    const driver = [
      // Stand-ins for the completion system's builtins: print what would be offered.
      'compdef() { :; }',
      '_describe() { :; }',
      'compadd() { while (( $# )); do if [[ $1 == -a ]]; then print -l -- ${(P)2}; shift; fi; shift; done }',
      `source ${JSON.stringify(path.join(REPO, 'completions/svc.zsh'))}`,
      "words=(svc completion '')",
      'CURRENT=3',
      '_svc',
    ].join('\n');
    const res = runShellIfInstalled('zsh', ['-f', '-c', driver]);
    if (!res) return;
    expect(res.stderr).toBe('');
    expect(res.stdout.trim().split('\n').sort()).toEqual(['bash', 'fish', 'zsh']);
  });

  it('fish offers the shells after svc completion', () => {
    const driver = `source ${JSON.stringify(path.join(REPO, 'completions/svc.fish'))}; complete -C 'svc completion '`;
    const res = runShellIfInstalled('fish', ['--no-config', '-c', driver]);
    if (!res) return;
    expect(res.stderr).toBe('');
    expect(res.stdout.trim().split('\n').map((l) => l.split('\t')[0]).sort()).toEqual(['bash', 'fish', 'zsh']);
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
