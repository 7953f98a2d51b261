import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { Acl } from '../../../src/secrets/policy/acl.js';
import { parsePolicy } from '../../../src/secrets/policy/policy.js';

const DIR = fileURLToPath(new URL('../../../examples/policies/', import.meta.url));

async function load(file: string): Promise<Acl> {
  return Acl.fromPolicies([await parsePolicy(path.basename(file, '.hcl'), await readFile(path.join(DIR, file), 'utf8'))]);
}

describe('examples/policies', () => {
  it('every example parses', async () => {
    const files = (await readdir(DIR)).filter((f) => f.endsWith('.hcl'));
    expect(files.length).toBeGreaterThan(0);
    for (const f of files) await expect(load(f), f).resolves.toBeInstanceOf(Acl);
  });

  it('ci-deploy can submit jobs in default and look after its own token, and nothing more', async () => {
    const acl = await load('ci-deploy.hcl');
    expect(acl.allowsNamespace('default', 'submit-job')).toBe(true);
    expect(acl.allowsNamespace('default', 'read-logs')).toBe(true);
    expect(acl.allowsNamespace('default', 'dispatch-job')).toBe(true);
    expect(acl.allowsNamespace('default', 'alloc-exec')).toBe(true);
    expect(acl.allowsNamespace('default', 'alloc-node-exec'), 'its comment says raw_exec tasks are out of reach').toBe(false);
    expect(acl.allowsNamespace('prod', 'submit-job')).toBe(false);
    expect(acl.allows('auth/token/renew-self', 'update')).toBe(true);
    expect(acl.allows('auth/token/create', 'update')).toBe(false);
    expect(acl.allows('sys/policies/acl/ci-deploy', 'update')).toBe(false);
  });

  it('auditor can read policies, auth mounts and jobs everywhere, and change nothing', async () => {
    const acl = await load('auditor.hcl');
    expect(acl.allows('sys/policies/acl/', 'list')).toBe(true);
    expect(acl.allows('sys/policies/acl/ci-deploy', 'read')).toBe(true);
    expect(acl.allows('sys/policies/acl/ci-deploy', 'update')).toBe(false);
    expect(acl.allows('sys/auth', 'read')).toBe(true);
    expect(acl.allows('sys/auth/cloud', 'update')).toBe(false);
    expect(acl.allowsNamespace('prod', 'read-job')).toBe(true);
    expect(acl.allowsNamespace('prod', 'submit-job')).toBe(false);
    expect(acl.allowsNamespace('prod', 'read-logs')).toBe(false);
  });
});
