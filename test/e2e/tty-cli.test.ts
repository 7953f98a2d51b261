/**
 * The terminal policy end to end, through the built bin/svc: in a real pseudo-terminal (node-pty) the
 * questions (the token of `svc login`, confirmations, the batch question of `job restart`) are asked and
 * answered, output is coloured and waits show a spinner on stderr; with -yes, -non-interactive, NO_COLOR,
 * -no-color or pipes there is no question, no colour and no progress byte, and empty lists are `[]`.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SVC_BIN, makeTempDir, startTestServer, type TestServer } from '../support/server.js';
import { until } from '../support/wait.js';
import { sleeper, startPty, type PtyRun } from '../support/exec-cli.js';

let srv: TestServer;
let home: string;
const ptys: PtyRun[] = [];

/** A frame of ora's default spinner (cli-spinners' "dots"), cyan, and the space before the text. */
const FRAME = '\u001b\\[36m[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏]\u001b\\[39m ';
/** What a spinner or a redraw writes: an escape sequence, or a braille frame. */
const PROGRESS = /\u001b|[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏]/;

beforeAll(async () => {
  srv = await startTestServer();
  home = await makeTempDir('svc-tty-home-');
});

afterEach(() => {
  for (const p of ptys.splice(0)) p.kill();
});

afterAll(async () => {
  await srv?.close();
  await rm(home, { recursive: true, force: true });
});

/** bin/svc in a fresh pseudo-terminal: stdin, stdout and stderr all on it; colour unless `env` says otherwise. */
function svcInPty(args: string[], env: Record<string, string | undefined> = {}): PtyRun {
  const p = startPty(process.execPath, [SVC_BIN, ...args], {
    cols: 120,
    rows: 40,
    env: { PATH: process.env.PATH, HOME: home, SVC_ADDR: srv.url, SVC_TOKEN: srv.rootToken, TERM: 'xterm', ...env },
  });
  ptys.push(p);
  return p;
}

async function registerJob(job: Record<string, unknown>): Promise<void> {
  await srv.client().scheduler('POST', '/v1/jobs', { body: { Job: { Datacenters: ['dc1'], ...job } } });
}

type JobStub = { ID: string; Stop: boolean };
const jobStopped = async (id: string) => (await srv.client().scheduler<JobStub>('GET', `/v1/job/${id}`)).body.Stop;

describe('svc login on a terminal', () => {
  it('asks for the token without echoing it, and stores it', async () => {
    const token = (await srv.client().secrets('POST', 'auth/token/create', { body: { policies: ['default'] } }))!.auth!.client_token as string;
    const tokenHome = await makeTempDir('svc-tty-login-');
    try {
      const p = svcInPty(['login', '-no-print'], { SVC_TOKEN: undefined, HOME: tokenHome });
      await p.waitFor('Token (will be hidden):');
      p.write(`${token}\r`);
      expect(await p.exited).toBe(0);
      expect(p.output()).not.toContain(token);
      expect((await readFile(path.join(tokenHome, '.svc-token'), 'utf8')).trim()).toBe(token);
    } finally {
      await rm(tokenHome, { recursive: true, force: true });
    }
  });

  it('with -non-interactive asks nothing and says what to pass', async () => {
    const p = svcInPty(['login', '-non-interactive'], { SVC_TOKEN: undefined });
    expect(await p.exited).toBe(1);
    expect(p.output()).toContain('No token given: pass TOKEN, or - to read it from stdin');
    expect(p.output()).not.toContain('Token (will be hidden)');
  });
});

describe('confirmations', () => {
  beforeAll(async () => {
    await registerJob({ ID: 'tty-stop-declined', Type: 'batch', TaskGroups: [{ Name: 'g', Count: 1, Tasks: [sleeper('t')] }] });
    await registerJob({ ID: 'tty-stop-accepted', Type: 'batch', TaskGroups: [{ Name: 'g', Count: 1, Tasks: [sleeper('t')] }] });
    await registerJob({ ID: 'tty-stop-yes', Type: 'batch', TaskGroups: [{ Name: 'g', Count: 1, Tasks: [sleeper('t')] }] });
    await registerJob({ ID: 'tty-stop-refused', Type: 'batch', TaskGroups: [{ Name: 'g', Count: 1, Tasks: [sleeper('t')] }] });
  });

  it('job stop asks when a prefix named the job: no keeps it', async () => {
    const p = svcInPty(['job', 'stop', '-detach', 'tty-stop-decl']);
    await p.waitFor('Are you sure you want to stop job "tty-stop-declined"?');
    p.write('n\r');
    expect(await p.exited).toBe(0);
    expect(p.output()).toContain('Cancelling job stop');
    expect(await jobStopped('tty-stop-declined')).toBe(false);
  });

  it('job stop asks when a prefix named the job: yes stops it', async () => {
    const p = svcInPty(['job', 'stop', '-detach', 'tty-stop-acc']);
    await p.waitFor('Are you sure you want to stop job "tty-stop-accepted"?');
    p.write('y\r');
    expect(await p.exited).toBe(0);
    expect(await jobStopped('tty-stop-accepted')).toBe(true);
  });

  it('Ctrl-C at the question stops the command with an error, the job untouched', async () => {
    const p = svcInPty(['job', 'stop', '-detach', 'tty-stop-decl']);
    await p.waitFor('Are you sure you want to stop job "tty-stop-declined"?');
    p.write('\u0003');
    expect(await p.exited).toBe(1);
    expect(p.output()).toContain('Error: interrupted');
    expect(await jobStopped('tty-stop-declined')).toBe(false);
  });

  it('-yes gives the confirmation in advance', async () => {
    const p = svcInPty(['job', 'stop', '-detach', '-yes', 'tty-stop-y']);
    expect(await p.exited).toBe(0);
    expect(p.output()).not.toContain('Are you sure');
    expect(await jobStopped('tty-stop-yes')).toBe(true);
  });

  it('-non-interactive makes the question an error that names -yes', async () => {
    const p = svcInPty(['job', 'stop', '-detach', '-non-interactive', 'tty-stop-ref']);
    expect(await p.exited).toBe(1);
    expect(p.output()).toContain('"tty-stop-ref" is a prefix of job "tty-stop-refused": pass the full ID, or -yes to stop it without confirmation');
    expect(p.output()).not.toContain('Are you sure');
    expect(await jobStopped('tty-stop-refused')).toBe(false);
  });

  it('node drain asks when a prefix named the node: no leaves it alone', async () => {
    const [node] = (await srv.client().scheduler<Array<{ ID: string }>>('GET', '/v1/nodes')).body;
    const p = svcInPty(['node', 'drain', '-enable', '-detach', node.ID.slice(0, 6)]);
    await p.waitFor(`Are you sure you want to enable drain mode for node "${node.ID}"?`);
    p.write('n\r');
    expect(await p.exited).toBe(0);
    expect(p.output()).toContain('Canceling drain toggle');
    expect((await srv.client().scheduler<{ DrainStrategy: unknown }>('GET', `/v1/node/${node.ID}`)).body.DrainStrategy).toBeNull();
  });

  it('job restart -batch-wait=ask asks before the next batch; no cancels', async () => {
    // A batch job: no deployment for the restart to wait on.
    await registerJob({ ID: 'tty-restart', Type: 'batch', TaskGroups: [{ Name: 'g', Count: 2, Tasks: [sleeper('t')] }] });
    type Stub = { ClientStatus: string };
    await until(
      async () => (await srv.client().scheduler<Stub[]>('GET', '/v1/job/tty-restart/allocations')).body,
      (l) => l.length === 2 && l.every((a) => a.ClientStatus === 'running'),
      'both allocations to run',
    );
    const p = svcInPty(['job', 'restart', '-batch-wait=ask', 'tty-restart']);
    await p.waitFor('Proceed with the next batch? [Y/n/<wait duration>]');
    p.write('n\r');
    expect(await p.exited).toBe(0);
    expect(p.output()).toContain('Job restart canceled');
  });
});

describe('colour', () => {
  beforeAll(() => registerJob({ ID: 'tty-colour', Type: 'batch', TaskGroups: [{ Name: 'g', Count: 1, Tasks: [sleeper('t')] }] }));

  it('on a terminal: bold table headers, red errors', async () => {
    const list = svcInPty(['job', 'status']);
    expect(await list.exited).toBe(0);
    expect(list.output()).toContain('\u001b[1mID\u001b[22m');
    const error = svcInPty(['job', 'status', 'nope']);
    expect(await error.exited).toBe(1);
    expect(error.output()).toContain('\u001b[31mNo job(s) with prefix or id "nope" found\u001b[39m');
  });

  it('none on a terminal with NO_COLOR, SVC_CLI_NO_COLOR or -no-color', async () => {
    for (const [args, env, shown] of [
      [['job', 'status'], { NO_COLOR: '1' }, 'tty-colour'],
      [['job', 'status'], { SVC_CLI_NO_COLOR: 'true' }, 'tty-colour'],
      [['job', 'status', '-no-color'], {}, 'tty-colour'],
      [['job', 'status', '-no-color', 'nope'], {}, 'No job(s) with prefix or id "nope" found'],
    ] as const) {
      const p = svcInPty([...args], env);
      await p.exited;
      expect(p.output(), `${args.join(' ')} ${JSON.stringify(env)}`).toContain(shown);
      expect(p.output(), `${args.join(' ')} ${JSON.stringify(env)}`).not.toContain('\u001b[');
    }
  });

  it('none when piped', async () => {
    const list = await srv.cli(['job', 'status'], { env: { NO_COLOR: undefined } });
    expect(list.stdout).toContain('tty-colour');
    const error = await srv.cli(['job', 'status', 'nope'], { env: { NO_COLOR: undefined } });
    expect(error).toMatchObject({ code: 1, stderr: 'No job(s) with prefix or id "nope" found\n' });
    expect(list.stdout + list.stderr).not.toContain('\u001b[');
  });
});

describe('progress', () => {
  /** A service job whose deployment takes at least two seconds: min_healthy_time. */
  const slowDeployment = (id: string) => `job "${id}" {
  datacenters = ["dc1"]
  update {
    min_healthy_time  = "2s"
    healthy_deadline  = "1m"
    progress_deadline = "2m"
  }
  group "g" {
    task "t" {
      driver = "raw_exec"
      config {
        command = "/bin/sh"
        args    = ["-c", "exec sleep 300"]
      }
      resources {
        cpu    = 20
        memory = 16
      }
    }
  }
}
`;

  it('job run on a terminal spins on stderr while the deployment runs, and ends with its state', async () => {
    const file = path.join(home, 'tty-deploy.nomad.hcl');
    await writeFile(file, slowDeployment('tty-deploy'));
    const p = svcInPty(['job', 'run', file]);
    await p.waitForMatch(new RegExp(`${FRAME}Deployment "[0-9a-f]{8}" in progress\\.\\.\\.`));
    expect(await p.exited).toBe(0);
    expect(p.output()).toMatch(/✓\u001b\[39m Deployment "[0-9a-f]{8}" successful/);
  });

  it('job run piped: the same lines, and not one progress byte', async () => {
    const file = path.join(home, 'piped-deploy.nomad.hcl');
    await writeFile(file, slowDeployment('piped-deploy'));
    const r = await srv.cli(['job', 'run', file], { env: { NO_COLOR: undefined } });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatch(/\n {2}✓ Deployment "[0-9a-f]{8}" successful\n$/);
    expect(r.stdout).not.toMatch(PROGRESS);
  });

  describe('svc login -method=cloud waiting on the metadata service', () => {
    let metadata: http.Server;
    let endpoint: string;
    /** Requests it holds; each is answered 500 after `holdMs`, or never when 0. */
    let holdMs = 0;

    beforeAll(async () => {
      metadata = http.createServer((_req, res) => {
        if (holdMs > 0) setTimeout(() => res.writeHead(500).end('unavailable'), holdMs);
      });
      await new Promise<void>((resolve) => metadata.listen(0, '127.0.0.1', resolve));
      endpoint = `http://127.0.0.1:${(metadata.address() as AddressInfo).port}`;
    });

    afterAll(async () => {
      metadata.closeAllConnections();
      await new Promise((resolve) => metadata.close(resolve));
    });

    it('spins on a terminal', async () => {
      holdMs = 0;
      const p = svcInPty(['login', '-method=cloud', 'type=ec2'], { CLOUD_METADATA_ENDPOINT: endpoint });
      await p.waitForMatch(new RegExp(`${FRAME}Reading the instance identity from the metadata service`));
    });

    it('piped, says only what failed', async () => {
      holdMs = 1000;
      const r = await srv.cli(['login', '-method=cloud', 'type=ec2'], { env: { CLOUD_METADATA_ENDPOINT: endpoint, NO_COLOR: undefined } });
      expect(r.code).toBe(1);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(/^Error: Error reading the instance identity document from the metadata service at http:\/\/127\.0\.0\.1:\d+ [^\n]*\n$/);
    });
  });
});

describe('empty lists are [] on both sides', () => {
  beforeAll(() => srv.client().scheduler('POST', '/v1/namespace/empty', { body: { Name: 'empty' } }));

  it('secrets list commands: [] in json and yaml, still exit 2 as Vault, nothing on stderr', async () => {
    for (const args of [['list', 'secret/nothing'], ['identity', 'entity', 'list'], ['identity', 'entity-alias', 'list'], ['auth', 'cloud', 'role', 'list']]) {
      expect(await srv.cli([...args, '-format=json']), args.join(' ')).toEqual({ code: 2, stdout: '[]\n', stderr: '' });
      expect(await srv.cli([...args, '-format=yaml']), args.join(' ')).toEqual({ code: 2, stdout: '[]\n', stderr: '' });
    }
    expect(await srv.cli(['list', 'secret/nothing'])).toEqual({ code: 2, stdout: '', stderr: 'No value found at secret/nothing/\n' });
  });

  it('scheduler list commands: [] in json and yaml', async () => {
    for (const args of [['job', 'status'], ['eval', 'list'], ['deployment', 'list'], ['service', 'list']]) {
      expect(await srv.cli([...args, '-namespace=empty', '-json']), args.join(' ')).toEqual({ code: 0, stdout: '[]\n', stderr: '' });
      expect(await srv.cli([...args, '-namespace=empty', '-format=yaml']), args.join(' ')).toEqual({ code: 0, stdout: '[]\n', stderr: '' });
    }
  });

  it('json carries no colour, even when forced', async () => {
    const r = await srv.cli(['list', 'sys/policies/acl', '-format=json', '-force-color']);
    expect(JSON.parse(r.stdout)).toContain('default');
    expect(r.stdout).not.toContain('\u001b[');
  });
});
