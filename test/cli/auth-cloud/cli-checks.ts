/** What the `svc auth cloud` CLI tests check on every successful run, and how they read -format=json output. */
import { expect } from 'vitest';
import type { CliResult, TestServer } from '../../support/server.js';

export const data = (stdout: string) => (JSON.parse(stdout) as { data: Record<string, unknown> }).data;

/** Runs bin/svc against the server and expects exit 0 with nothing on stderr. */
export async function expectOk(srv: TestServer, args: string[]): Promise<CliResult> {
  const res = await srv.cli(args);
  expect(res.stderr, `svc ${args.join(' ')}`).toBe('');
  expect(res.code, `svc ${args.join(' ')}`).toBe(0);
  return res;
}
