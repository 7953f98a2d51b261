/**
 * The scheduler commands' output family through the built bin/svc against a real server with its own
 * node: -format json|yaml, -json, -field, -t and SVC_FORMAT on job status/list, alloc status, node
 * status, eval list, deployment list and namespace list; empty lists as `[]`; contradicting flags as
 * usage errors.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { startTestServer, type TestServer } from '../support/server.js';
import { until } from '../support/wait.js';
import { jobAllocations } from '../../src/api/jobs.js';

let srv: TestServer;
let allocId: string;
let nodeId: string;

const JOB = `job "out" {
  type = "batch"
  group "g" {
    task "t" {
      driver = "raw_exec"
      config {
        command = "/bin/sh"
        args    = ["-c", "exit 0"]
      }
    }
  }
}
`;

beforeAll(async () => {
  srv = await startTestServer();
  const run = await srv.cli(['job', 'run', '-detach', '-'], { input: JOB });
  expect(run.code, run.stderr).toBe(0);
  const allocs = await until(() => jobAllocations(srv.client(), 'out', { namespace: 'default' }), (list) => list.length > 0, 'an allocation of the job');
  allocId = allocs[0].ID;
  nodeId = JSON.parse((await srv.cli(['node', 'status', '-json'])).stdout)[0].ID;
});

afterAll(async () => {
  await srv.close();
});

/** Each command and what identifies its object: a list's elements or one object carry `key` = `value`. */
const CASES: Array<{ argv: () => string[]; key: string; value: () => string; list: boolean }> = [
  { argv: () => ['job', 'status'], key: 'ID', value: () => 'out', list: true },
  { argv: () => ['job', 'status', 'out'], key: 'ID', value: () => 'out', list: false },
  { argv: () => ['alloc', 'status', allocId], key: 'ID', value: () => allocId, list: false },
  { argv: () => ['node', 'status'], key: 'ID', value: () => nodeId, list: true },
  { argv: () => ['node', 'status', nodeId], key: 'ID', value: () => nodeId, list: false },
  { argv: () => ['eval', 'list', '-job', 'out'], key: 'JobID', value: () => 'out', list: true },
  { argv: () => ['namespace', 'list'], key: 'Name', value: () => 'default', list: true },
];

const first = (parsed: unknown, list: boolean) => (list ? (parsed as Array<Record<string, unknown>>)[0] : (parsed as Record<string, unknown>));

describe.each(CASES)('svc $argv', ({ argv, key, value, list }) => {
  const cmd = (...extra: string[]) => [...argv(), ...extra];

  it('-format=json: sorted keys, 2-space indent, no colour, the same as -json', async () => {
    const r = await srv.cli(cmd('-format=json', '-force-color'));
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).not.toContain('\x1b[');
    const parsed = JSON.parse(r.stdout);
    expect(Array.isArray(parsed)).toBe(list);
    expect(first(parsed, list)[key]).toBe(value());
    const keys = Object.keys(first(parsed, list));
    expect(keys).toEqual([...keys].sort());
    expect(r.stdout).toMatch(list ? /^\[\n {2}\{\n {4}"/ : /^\{\n {2}"/);
    const legacy = await srv.cli(cmd('-json'));
    expect(Object.keys(first(JSON.parse(legacy.stdout), list))).toEqual(keys);
  });

  it('-format=yaml parses to the same object', async () => {
    const r = await srv.cli(cmd('-format', 'yaml'));
    expect(r.code, r.stderr).toBe(0);
    expect(first(parseYaml(r.stdout), list)[key]).toBe(value());
  });

  it('SVC_FORMAT=json is the default format', async () => {
    const r = await srv.cli(cmd(), { env: { SVC_FORMAT: 'json' } });
    expect(r.code, r.stderr).toBe(0);
    expect(first(JSON.parse(r.stdout), list)[key]).toBe(value());
  });

  it('-field prints the raw value (over a list, one per element)', async () => {
    const r = await srv.cli(cmd('-field', key));
    expect(r.code, r.stderr).toBe(0);
    if (list) expect(r.stdout.split('\n')).toContain(value());
    else expect(r.stdout).toBe(value());
  });

  it('-t renders a Go template over the object', async () => {
    const r = await srv.cli(cmd('-t', list ? `{{range .}}<{{.${key}}}>{{end}}` : `<{{.${key}}}>`));
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(`<${value()}>`);
  });
});

describe('empty lists and conflicts', () => {
  it('an empty list is [] in json and yaml, and the Nomad sentence in the table', async () => {
    await srv.client().scheduler('POST', '/v1/namespace/empty', { body: { Name: 'empty' } });
    const json = await srv.cli(['deployment', 'list', '-namespace', 'empty', '-format=json']);
    expect(json).toMatchObject({ code: 0, stdout: '[]\n' });
    const yaml = await srv.cli(['job', 'status', '-namespace', 'empty', '-format=yaml']);
    expect(yaml).toMatchObject({ code: 0, stdout: '[]\n' });
    const evals = await srv.cli(['eval', 'list', '-job', 'none'], { env: { SVC_FORMAT: 'json' } });
    expect(evals).toMatchObject({ code: 0, stdout: '[]\n' });
    expect((await srv.cli(['deployment', 'list', '-namespace', 'empty'])).stdout).toBe('No deployments found\n');
  });

  it('a missing -field is a usage error naming the field', async () => {
    const r = await srv.cli(['job', 'status', 'out', '-field', 'Nope']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^Field "Nope" not present in the output/);
  });

  it.each([
    [['-json', '-format=yaml'], /^-json and -format=yaml ask for different formats/],
    [['-t', '{{.}}', '-format=json'], /^-t cannot be combined with -format or -field/],
    [['-t', '{{.}}', '-field', 'ID'], /^-t cannot be combined with -format or -field/],
    [['-json', '-t', '{{.}}'], /^Both json and template formatting are not allowed/],
  ])('%j is a usage error, before the server is asked', async (flags, message) => {
    const r = await srv.cli(['job', 'status', ...flags, 'out'], { env: { SVC_ADDR: 'http://127.0.0.1:1' } });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(message);
    expect(r.stderr).toContain('Usage: svc job status');
  });

  it('explicit -json and -t win over SVC_FORMAT', async () => {
    const json = await srv.cli(['job', 'status', '-json', 'out'], { env: { SVC_FORMAT: 'yaml' } });
    expect(JSON.parse(json.stdout).ID).toBe('out');
    const t = await srv.cli(['job', 'status', '-t', '{{.ID}}', 'out'], { env: { SVC_FORMAT: 'json' } });
    expect(t).toMatchObject({ code: 0, stdout: 'out\n' });
  });

  it('-monitor refuses a data format', async () => {
    const r = await srv.cli(['eval', 'status', '-monitor', '-format=json', 'ffffffff']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^-monitor prints progress, not data/);
  });
});
