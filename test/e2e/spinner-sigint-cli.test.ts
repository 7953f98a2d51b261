/**
 * Ctrl-C while `svc job run` waits on a deployment, in a real pseudo-terminal: the spinner's line is taken
 * off the screen before the process ends, instead of staying under the prompt.
 */
import { rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SVC_BIN, makeTempDir, startTestServer, type TestServer } from '../support/server.js';
import { startPty, type PtyRun } from '../support/exec-cli.js';

let srv: TestServer;
let home: string;
let p: PtyRun | undefined;

beforeAll(async () => {
  srv = await startTestServer();
  home = await makeTempDir('svc-spinner-sigint-');
});

afterAll(async () => {
  p?.kill();
  await srv?.close();
  await rm(home, { recursive: true, force: true });
});

/** A frame of ora's spinner and its text; an erase of (part of) the line, as node:readline writes it. */
const SPINNING = /[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏](?:\u001b\[39m)? Deployment "[0-9a-f]{8}" in progress\.\.\./g;
const ERASE_LINE = /\u001b\[[012]?K/;

describe('Ctrl-C during job run', () => {
  it('clears the spinner line before the command ends', async () => {
    const file = path.join(home, 'held.nomad.hcl');
    // min_healthy_time keeps the deployment in progress far longer than the test waits.
    await writeFile(
      file,
      `job "held" {
  datacenters = ["dc1"]
  update {
    min_healthy_time  = "5m"
    healthy_deadline  = "10m"
    progress_deadline = "20m"
  }
  group "g" {
    task "t" {
      driver = "raw_exec"
      config {
        command = "/bin/sh"
        args    = ["-c", "exec sleep 600"]
      }
    }
  }
}
`,
    );
    p = startPty(process.execPath, [SVC_BIN, 'job', 'run', file], {
      cols: 120,
      rows: 40,
      env: { PATH: process.env.PATH, HOME: home, SVC_ADDR: srv.url, SVC_TOKEN: srv.rootToken, TERM: 'xterm' },
    });
    await p.waitForMatch(SPINNING);
    p.write('\u0003');
    await p.exited;
    const out = p.output();
    const frames = [...out.matchAll(SPINNING)];
    const afterLastFrame = out.slice(frames.at(-1)!.index! + frames.at(-1)![0].length);
    expect(afterLastFrame, JSON.stringify(afterLastFrame)).toMatch(ERASE_LINE);
    expect(afterLastFrame).not.toMatch(/Deployment "[0-9a-f]{8}" in progress/);
  });
});
