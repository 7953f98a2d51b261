import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { makeTempDir, runCli } from '../support/server.js';

let dir: string;

beforeAll(async () => {
  dir = await makeTempDir('svc-policy-fmt-');
});

const fmt = (file: string) => runCli(['policy', 'fmt', file], { HOME: dir });

describe('svc policy fmt', () => {
  it('rewrites the file in place with canonical indentation and aligned =, keeping comments', async () => {
    const file = path.join(dir, 'ops.hcl');
    await writeFile(file, '# ops\npath "secret/*"{\ncapabilities=["read","list"]\n    # no writes\n}\n\n\nnamespace "team-a" {\npolicy = "write"\n  capabilities = ["submit-job"]\n}\n');
    expect(await fmt(file)).toEqual({ code: 0, stderr: '', stdout: `Success! Formatted policy: ${file}\n` });
    expect(await readFile(file, 'utf8')).toBe(
      '# ops\npath "secret/*" {\n  capabilities = ["read", "list"]\n  # no writes\n}\n\nnamespace "team-a" {\n  policy       = "write"\n  capabilities = ["submit-job"]\n}\n',
    );
  });

  it('leaves a formatted file as it is', async () => {
    const file = path.join(dir, 'ci-deploy.hcl');
    const text = await readFile(path.resolve('examples/policies/ci-deploy.hcl'), 'utf8');
    await writeFile(file, text);
    expect((await fmt(file)).code).toBe(0);
    expect(await readFile(file, 'utf8')).toBe(text);
  });

  it('fails with the parse error and leaves the file unchanged when the HCL does not parse', async () => {
    const file = path.join(dir, 'broken.hcl');
    const text = 'path "a" {\ncapabilities = ["read"\n}\n';
    await writeFile(file, text);
    const run = await fmt(file);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^Error: failed to parse policy "broken": .*line \d+/);
    expect(await readFile(file, 'utf8')).toBe(text);
  });

  it('refuses a policy the server would refuse, with the server parser\'s error, and changes nothing', async () => {
    const file = path.join(dir, 'bad-cap.hcl');
    const text = 'path "a" {\ncapabilities=["write"]\n}\n';
    await writeFile(file, text);
    const run = await fmt(file);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('"write"');
    expect(await readFile(file, 'utf8')).toBe(text);
  });

  it('refuses a JSON policy and leaves it as it is', async () => {
    const file = path.join(dir, 'json.hcl');
    const text = '{"path": {"a": {"capabilities": ["read"]}}}\n';
    await writeFile(file, text);
    expect(await fmt(file)).toEqual({ code: 1, stdout: '', stderr: `Error: ${file} holds a JSON policy; only HCL policies are formatted\n` });
    expect(await readFile(file, 'utf8')).toBe(text);
  });

  it('says which file it cannot read', async () => {
    const run = await fmt(path.join(dir, 'missing.hcl'));
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`Error reading source file "${path.join(dir, 'missing.hcl')}"`);
  });
});
