/**
 * The exec driver: isolated where the host allows namespaces (this is probed, and the isolation asserted),
 * and refused with the reason where it does not.
 */
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ExecDriver } from '../../src/client/drivers/exec.js';
import { nodeDrivers } from '../../src/client/drivers/registry.js';
import { SEC, allDead, events, lastEvent, makeAlloc, startRunner, taskState, tempDir, waitFor } from './helpers.js';

const tmp = tempDir();
afterAll(() => tmp.cleanup());

const hostFp = await new ExecDriver().fingerprint();

/** A host where unshare exists but the kernel refuses namespaces (as in an unprivileged container). */
function refusingUnshare(): string {
  const p = path.join(tmp.dir, 'unshare');
  writeFileSync(p, '#!/bin/sh\necho "unshare: unshare failed: Operation not permitted" >&2\nexit 1\n');
  chmodSync(p, 0o755);
  return p;
}

const execTask = (name: string, script: string, extra: Record<string, unknown> = {}) => ({
  Name: name,
  Driver: 'exec',
  Config: { command: '/bin/sh', args: ['-c', script] },
  KillTimeout: 3 * SEC,
  ...extra,
});

describe('exec driver: fingerprint', () => {
  it('is detected exactly when namespaces can be created, and says why not otherwise', () => {
    if (hostFp.healthy) {
      expect(hostFp).toEqual({ detected: true, healthy: true, description: 'Healthy', attributes: { 'driver.exec': '1' } });
    } else {
      expect(hostFp.detected).toBe(false);
      expect(hostFp.description).toMatch(/^exec driver unavailable: .+/);
    }
  });

  it('reports the refusal of a host that does not allow namespaces, with the error', async () => {
    const fp = await new ExecDriver({ unshare: refusingUnshare() }).fingerprint();
    expect(fp.detected).toBe(false);
    expect(fp.healthy).toBe(false);
    expect(fp.attributes).toEqual({});
    if (process.getuid?.() === 0) {
      expect(fp.description).toContain('this host does not allow creating pid and mount namespaces');
      expect(fp.description).toContain('Operation not permitted');
    }
  });

  it('a task sent to such a node fails to start with that reason', async () => {
    const drivers = new Map([...nodeDrivers(), ['exec', new ExecDriver({ unshare: refusingUnshare() })]]);
    const alloc = makeAlloc({ tasks: [execTask('t', 'true')] });
    const { runner } = await startRunner(alloc, tmp.dir, { drivers });
    await allDead(runner);
    expect(events(runner, 't')).toEqual(['Received', 'Task Setup', 'Driver Failure', 'Not Restarting']);
    expect(lastEvent(runner, 't', 'Driver Failure')?.DisplayMessage).toMatch(/^exec driver unavailable: /);
  });
});

describe.runIf(hostFp.healthy)('exec driver: isolation on this host', () => {
  it('runs the task in its own pid, mount and uts namespaces, chrooted into its task root', async () => {
    const script = [
      'echo $$ > /alloc/data/pid',
      'ls / > /local/root-listing',
      'ls /proc | grep -c "^[0-9]" > /local/proc-count',
      'tr "\\0" " " < /proc/1/cmdline > /local/init-cmdline',
      'touch /usr/should-fail 2>/dev/null && echo writable > /local/usr || echo read-only > /local/usr',
      'echo "$NOMAD_TASK_DIR $NOMAD_ALLOC_DIR $NOMAD_SECRETS_DIR" > /local/env',
      'echo "${HOME_FROM_HOST:-unset}" > /local/host-env',
      'hostname exec-task-host && hostname > /local/hostname',
      'echo hello-from-exec',
    ].join('; ');
    const alloc = makeAlloc({ tasks: [execTask('iso', script)] });
    process.env.HOME_FROM_HOST = 'leaked';
    const { runner } = await startRunner(alloc, tmp.dir);
    await allDead(runner);
    delete process.env.HOME_FROM_HOST;
    expect(events(runner, 'iso')).toEqual(['Received', 'Task Setup', 'Started', 'Terminated']);
    expect(lastEvent(runner, 'iso', 'Terminated')?.DisplayMessage).toBe('Exit Code: 0');

    const root = path.join(tmp.dir, alloc.ID);
    const local = path.join(root, 'iso/local');
    // a pid namespace of its own: pid 1 is the executor's init, the task a low pid (after the mount helpers)
    expect(readFileSync(path.join(local, 'init-cmdline'), 'utf8')).toContain('executor.cjs --init');
    expect(Number(readFileSync(path.join(root, 'alloc/data/pid'), 'utf8'))).toBeLessThan(64);
    expect(Number(readFileSync(path.join(local, 'proc-count'), 'utf8'))).toBeLessThan(8);
    const listing = readFileSync(path.join(local, 'root-listing'), 'utf8').trim().split('\n');
    expect(listing).toEqual(expect.arrayContaining(['alloc', 'local', 'secrets', 'tmp', 'usr', 'bin', 'etc', 'dev', 'proc']));
    // the host's own top-level directories are not there
    expect(listing).not.toContain('work');
    expect(listing).not.toContain('root');
    expect(readFileSync(path.join(local, 'usr'), 'utf8').trim()).toBe('read-only');
    // its own uts namespace: renaming the host inside does not rename the host
    expect(readFileSync(path.join(local, 'hostname'), 'utf8').trim()).toBe('exec-task-host');
    expect(hostname()).not.toBe('exec-task-host');
    expect(readFileSync(path.join(local, 'env'), 'utf8').trim()).toBe('/local /alloc /secrets');
    expect(readFileSync(path.join(local, 'host-env'), 'utf8').trim()).toBe('unset');
    expect(readFileSync(path.join(root, 'alloc/logs/iso.stdout.0'), 'utf8')).toBe('hello-from-exec\n');
    // the bind mounts lived in the task's mount namespace only
    expect(readFileSync('/proc/self/mountinfo', 'utf8')).not.toContain(root);
    expect(existsSync(path.join(root, 'iso/usr/bin'))).toBe(false);
  });

  it('passes the kill signal through the namespace’s init to the task', async () => {
    const alloc = makeAlloc({
      type: 'service',
      tasks: [execTask('web', 'trap "echo INT > /local/got; exit 0" INT; echo ready > /local/ready; while :; do sleep 0.05; done', { KillTimeout: 5 * SEC })],
    });
    const { runner } = await startRunner(alloc, tmp.dir);
    const local = path.join(tmp.dir, alloc.ID, 'web/local');
    await waitFor(() => existsSync(path.join(local, 'ready')) && taskState(runner, 'web').State === 'running', 'the task to run');
    const t0 = Date.now();
    await runner.shutdown();
    expect(Date.now() - t0).toBeLessThan(2000);
    expect(readFileSync(path.join(local, 'got'), 'utf8').trim()).toBe('INT');
    expect(lastEvent(runner, 'web', 'Terminated')?.DisplayMessage).toBe('Exit Code: 0');
  });

  it('signals reach the task too, and a task killed by a signal reports it', async () => {
    const alloc = makeAlloc({ type: 'service', tasks: [execTask('sig', 'echo ready > /local/ready; exec sleep 30')] });
    const { runner } = await startRunner(alloc, tmp.dir);
    await waitFor(() => existsSync(path.join(tmp.dir, alloc.ID, 'sig/local/ready')) && taskState(runner, 'sig').State === 'running', 'the task to run');
    await runner.signal('SIGTERM', 'sig');
    await allDead(runner);
    expect(lastEvent(runner, 'sig', 'Terminated')).toMatchObject({ ExitCode: 143, Signal: 15, DisplayMessage: 'Exit Code: 143, Signal: 15' });
  });

  it('refuses a command that is not inside the task root', async () => {
    const alloc = makeAlloc({ tasks: [{ Name: 'missing', Driver: 'exec', Config: { command: 'no-such-binary-xyz' } }] });
    const { runner } = await startRunner(alloc, tmp.dir);
    await allDead(runner);
    expect(lastEvent(runner, 'missing', 'Driver Failure')?.DisplayMessage).toBe(
      'failed to launch command with executor: exec: "no-such-binary-xyz": executable file not found in $PATH',
    );
  });
});
