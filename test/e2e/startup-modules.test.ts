/**
 * What bin/svc loads to answer `svc version` and `svc status`, the commands whose start-up
 * bench/limits.mjs holds against a bare `node -e 0`: with its output going to a pipe, as in a script,
 * `svc version` writes without Node's stdout stream (node:net, which makes it, stays unloaded), and
 * `svc status` asks the server without node:http (the client's one-shot exchange). Node's own list of
 * the modules it loaded (process.moduleLoadList) is read at exit through a preloaded script.
 */
import { writeFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SVC_BIN, makeTempDir, runProgram, startTestServer, type TestServer } from '../support/server.js';

let srv: TestServer;
let dir: string;
let preload: string;

beforeAll(async () => {
  srv = await startTestServer({ client: false });
  dir = await makeTempDir('svc-startup-');
  preload = path.join(dir, 'report-modules.cjs');
  await writeFile(preload, `process.on('exit', () => require('node:fs').writeSync(2, '\\nloaded: ' + JSON.stringify(process.moduleLoadList.filter((m) => /^NativeModule (net|http|_http_client|tty)$/.test(m)))));\n`);
});

afterAll(async () => {
  await srv?.close();
  await rm(dir, { recursive: true, force: true });
});

async function svc(args: string[]) {
  const run = await runProgram(process.execPath, ['-r', preload, SVC_BIN, ...args], { PATH: process.env.PATH, HOME: dir, SVC_ADDR: srv.url, SVC_TOKEN: srv.rootToken, NO_COLOR: '1' });
  const at = run.stderr.lastIndexOf('\nloaded: ');
  return { code: run.code, stdout: run.stdout, stderr: run.stderr.slice(0, at), loaded: JSON.parse(run.stderr.slice(at + '\nloaded: '.length)) as string[] };
}

describe('bin/svc writing to a pipe', () => {
  it('svc version: its line, without loading node:net or node:tty', async () => {
    expect(await svc(['version'])).toEqual({ code: 0, stdout: expect.stringMatching(/^svc v\d+\.\d+\.\d+\S*\n$/), stderr: '', loaded: [] });
  });

  it('svc -help: the commands, likewise', async () => {
    const run = await svc(['-help']);
    expect(run.stdout).toContain('Run "svc <command> -help" for more on a command.');
    expect(run.loaded).toEqual([]);
  });

  it('svc status: the server\'s health over node:net alone, without node:http', async () => {
    const run = await svc(['status', '-format=json']);
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ initialized: true, sealed: false });
    expect(run.loaded).toEqual(['NativeModule net']);
  });

  it('an error: one line on stderr, written the same way', async () => {
    const run = await svc(['nosuch']);
    expect(run).toEqual({ code: 127, stdout: '', stderr: 'Unknown command: svc nosuch\nRun "svc -help" for the list of commands.\n', loaded: [] });
  });
});
