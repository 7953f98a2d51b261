/**
 * Nomad's spellings for what svc has under other names: `node status -self`, `server members`, and
 * `status PREFIX` (which finds the object an ID prefix names), against a real server with its own node.
 * `svc status` without an argument keeps Vault's meaning, the server's health.
 */
import path from 'node:path';
import { writeFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO, startTestServer, type TestServer } from '../support/server.js';

let srv: TestServer;
let nodeId: string;

beforeAll(async () => {
  srv = await startTestServer();
  nodeId = srv.server.node()!.ID;
  const run = await srv.cli(['job', 'run', path.join(REPO, 'examples/jobs/hello.nomad.hcl')]);
  expect(run.code, run.stderr).toBe(0);
  const second = path.join(srv.dataDir, 'hello-two.nomad.hcl');
  await writeFile(second, 'job "hello-two" {\n  type = "batch"\n  group "g" {\n    task "t" {\n      driver = "raw_exec"\n      config {\n        command = "/bin/true"\n      }\n    }\n  }\n}\n');
  const run2 = await srv.cli(['job', 'run', '-detach', second]);
  expect(run2.code, run2.stderr).toBe(0);
});

afterAll(async () => srv?.close());

describe('svc node status -self', () => {
  it("shows the node of the server the command talks to", async () => {
    const res = await srv.cli(['node', 'status', '-self', '-json']);
    expect(res.stderr).toBe('');
    expect(JSON.parse(res.stdout).ID).toBe(nodeId);
  });

  it('refuses a node ID next to -self', async () => {
    const res = await srv.cli(['node', 'status', '-self', nodeId]);
    expect(res.code).toBe(1);
    expect(res.stderr.split('\n')[0]).toBe('-self names the node: give no node ID with it');
  });
});

describe('svc server members', () => {
  it("prints Nomad's columns, the server marked leader", async () => {
    const res = await srv.cli(['server', 'members']);
    expect(res.stderr).toBe('');
    const [header, row, ...rest] = res.stdout.trimEnd().split('\n');
    expect(header.split(/\s{2,}/)).toEqual(['Name', 'Address', 'Port', 'Status', 'Leader', 'Raft Version', 'Build', 'Datacenter', 'Region']);
    expect(rest).toEqual([]);
    const port = new URL(srv.url).port;
    expect(row).toMatch(new RegExp(`^\\S+\\.global\\s+127\\.0\\.0\\.1\\s+${port}\\s+alive\\s+true\\s+\\S+\\s+dc1\\s+global$`));
  });

  it('-verbose adds the protocol and the tags, -json prints the members', async () => {
    const verbose = await srv.cli(['server', 'members', '-verbose']);
    expect(verbose.stdout.split('\n')[0].split(/\s{2,}/)).toContain('Tags');
    expect(verbose.stdout).toMatch(/region=global/);
    const json = JSON.parse((await srv.cli(['server', 'members', '-json'])).stdout);
    expect(json[0]).toMatchObject({ Status: 'alive', Tags: { region: 'global' } });
  });
});

describe('svc status', () => {
  it("without an argument is still the server's health", async () => {
    const res = await srv.cli(['status']);
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(/^Sealed\s+false$/m);
  });

  it("with a job's exact ID shows that job, as svc job status does, though a longer ID starts with it", async () => {
    const res = await srv.cli(['status', 'hello']);
    expect(res.stderr).toBe('');
    expect(res.stdout).toMatch(/^ID\s+= hello$/m);
  });

  it('with a unique prefix shows the one job it names', async () => {
    const res = await srv.cli(['status', 'hello-t']);
    expect(res.stderr).toBe('');
    expect(res.stdout).toMatch(/^ID\s+= hello-two$/m);
  });

  it("with a node ID prefix shows that node", async () => {
    const res = await srv.cli(['status', nodeId.slice(0, 8), '-format=json']);
    expect(res.stderr).toBe('');
    expect(JSON.parse(res.stdout).ID).toBe(nodeId);
  });

  it('a prefix matching nothing says so', async () => {
    const res = await srv.cli(['status', 'zz-nothing']);
    expect(res.code).toBe(1);
    expect(res.stderr).toBe('No matches returned for query: "zz-nothing"\n');
  });

  it('a prefix matching several objects lists the matches by kind', async () => {
    const res = await srv.cli(['status', 'hell']);
    expect(res.code).toBe(1);
    expect(res.stderr).toBe('Multiple matches found for id "hell"\n\nJobs:\nhello, hello-two\n');
  });
});
