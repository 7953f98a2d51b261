/**
 * The script check with real processes: the command is started the way the driver's exec path starts
 * one (a pipe session), and its exit code and output decide the result.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runScriptCheck, type ScriptExec } from '../../../src/client/checks/script-check.js';
import { startExecSession } from '../../../src/client/exec/session.js';
import { TaskNotRunningError } from '../../../src/client/errors.js';
import { waitFor } from '../helpers.js';
import { alive } from '../../support/wait.js';

const dir = mkdtempSync(path.join(tmpdir(), 'svc-script-check-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs the command on the host, in `dir`, as raw_exec's exec path would. */
const onHost: ScriptExec = async (command) => ({
  start: () => startExecSession({ file: command[0], args: command.slice(1), cwd: dir, env: { PATH: process.env.PATH ?? '' } }, { tty: false }),
});

describe('script check', () => {
  it('passes on exit code 0, with stdout and stderr as the output', async () => {
    expect(await runScriptCheck(onHost, ['/bin/sh', '-c', 'echo ready; echo warm >&2'], 10_000)).toEqual({ Status: 'success', Output: 'ready\nwarm\n' });
  });

  it('fails on any other exit code', async () => {
    expect(await runScriptCheck(onHost, ['/bin/sh', '-c', 'echo not yet; exit 1'], 10_000)).toEqual({ Status: 'failure', Output: 'not yet\n' });
  });

  it('keeps at most 3 KiB of the output', async () => {
    const r = await runScriptCheck(onHost, ['/bin/sh', '-c', 'head -c 10000 /dev/zero | tr "\\0" x'], 10_000);
    expect(r).toEqual({ Status: 'success', Output: 'x'.repeat(3 * 1024) });
  });

  it('kills a command that outlasts the timeout and fails', async () => {
    const pidFile = path.join(dir, 'pid');
    const run = runScriptCheck(onHost, ['/bin/sh', '-c', `echo $$ > ${pidFile}.tmp; mv ${pidFile}.tmp ${pidFile}; exec sleep 30`], 5000);
    await waitFor(() => existsSync(pidFile), 'the command to start');
    const pid = Number(readFileSync(pidFile, 'utf8'));
    expect(await run).toEqual({ Status: 'failure', Output: 'context deadline exceeded' });
    await waitFor(() => !alive(pid), 'the timed-out command to be killed');
  });

  it('fails with the reason when the command cannot run in the task', async () => {
    const notRunning: ScriptExec = async () => {
      throw new TaskNotRunningError('web');
    };
    expect(await runScriptCheck(notRunning, ['/bin/true'], 10_000)).toEqual({ Status: 'failure', Output: new TaskNotRunningError('web').message });
  });
});
