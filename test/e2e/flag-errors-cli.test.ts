/**
 * A mistyped flag through the built bin/svc: Go's words, the closest flags of that command, the usage
 * after them, all on stderr, exit 1 (a usage error in both families); nothing reaches the server.
 */
import { describe, expect, it } from 'vitest';
import { runCli } from '../support/server.js';

const svc = (args: string[]) => runCli(args, { HOME: '/nonexistent', NO_COLOR: '1', SVC_ADDR: 'http://127.0.0.1:1' });

describe('flag mistakes', () => {
  it('an undefined flag names the closest one: svc job run -detatch', async () => {
    expect(await svc(['job', 'run', '-detatch', 'x.hcl'])).toEqual({
      code: 1,
      stdout: '',
      stderr: 'flag provided but not defined: -detatch\nDid you mean -detach?\n\nUsage: svc job run [options] FILE\nRun "svc job run -help" for more.\n',
    });
  });

  it('the same for a secrets command, a common flag, and a double-dash one', async () => {
    const read = await svc(['read', '-fromat=json', 'secret/x']);
    expect([read.code, read.stdout]).toEqual([1, '']);
    expect(read.stderr).toMatch(/^flag provided but not defined: -fromat\nDid you mean -format\?\n\nUsage: svc read /);
    const status = await svc(['status', '--adress', 'http://127.0.0.1:2']);
    expect(status.code).toBe(1);
    expect(status.stderr).toMatch(/^flag provided but not defined: -adress\nDid you mean -address\?\n\nUsage: svc status /);
  });

  it('no suggestion when nothing is close', async () => {
    const r = await svc(['alloc', 'exec', '-x', 'ID', 'sh']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^flag provided but not defined: -x\n\nUsage: svc alloc exec /);
  });

  it('a value flag with nothing after it', async () => {
    const r = await svc(['job', 'run', 'x.hcl', '-check-index']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^flag needs an argument: -check-index\n\nUsage: svc job run /);
  });
});
