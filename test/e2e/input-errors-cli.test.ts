/**
 * Mistakes a user makes before any request, each answered with one line to act on instead of Node's
 * internals: a -port out of range, and a file argument that does not exist (no usage after it).
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rm } from 'node:fs/promises';
import { makeTempDir, runCli } from '../support/server.js';

let dir: string;
beforeAll(async () => {
  dir = await makeTempDir('svc-input-errors-');
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const svc = (args: string[]) => runCli(args, { HOME: dir, SVC_ADDR: 'http://127.0.0.1:1', NO_COLOR: '1' });

describe('svc server -port', () => {
  it('out of range names the flag and the range, not node:net options', async () => {
    const res = await svc(['server', '-dev', '-port', '99999']);
    expect(res.code).toBe(1);
    expect(res.stderr.split('\n')[0]).toBe('invalid value "99999" for -port: a port is 0 to 65535 (0 picks a free one)');
    expect(res.stderr).not.toContain('options.port');
    expect((await svc(['server', '-dev', '-port=-1'])).stderr.split('\n')[0]).toBe('invalid value "-1" for -port: a port is 0 to 65535 (0 picks a free one)');
  });
});

describe('svc server -dev-cloud-port', () => {
  it('is refused without -dev-cloud, and checked as a port', async () => {
    expect((await svc(['server', '-dev', '-dev-cloud-port=4600'])).stderr.split('\n')[0]).toBe('-dev-cloud-port is only allowed with -dev-cloud');
    expect((await svc(['server', '-dev', '-dev-cloud', '-dev-cloud-port=70000'])).stderr.split('\n')[0]).toBe('invalid value "70000" for -dev-cloud-port: a port is 0 to 65535 (0 picks a free one)');
  });
});

describe('a file argument that does not exist', () => {
  const missing = () => path.join(dir, 'missing.hcl');

  it.each([
    [['job', 'run'], (f: string) => `Error getting job struct: Error getting jobfile from "${f}": no such file`],
    [['job', 'validate'], (f: string) => `Error getting job struct: Error getting jobfile from "${f}": no such file`],
    [['policy', 'write', 'ops'], (f: string) => `Error: cannot read the policy file "${f}": no such file`],
    [['policy', 'fmt'], (f: string) => `Error reading source file "${f}": no such file`],
    [['job', 'dispatch', 'batch'], (f: string) => `Error reading input data: ${f}: no such file`],
  ])('svc %j is one line without ENOENT or the usage', async (words, message) => {
    const res = await svc([...words, missing()]);
    expect(res.code).toBe(1);
    expect(res.stderr).toBe(`${message(missing())}\n`);
  });

  it('a directory is named as one', async () => {
    const res = await svc(['policy', 'write', 'ops', dir]);
    expect(res.stderr).toBe(`Error: cannot read the policy file "${dir}": is a directory\n`);
  });
});
