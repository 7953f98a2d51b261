/** The client's cgroup settings in the server's configuration file. */
import { describe, expect, it } from 'vitest';
import { configFiles } from '../../support/config-files.js';

const { load } = configFiles('svc-cgroup-config-');

describe('config file: client { cgroup_parent, pids_limit, memory_oversubscription }', () => {
  it('reads them from HCL and YAML', async () => {
    const hcl = await load('a.hcl', 'client {\n  cgroup_parent = "svc-prod"\n  pids_limit = 512\n  memory_oversubscription = true\n}\n');
    expect(hcl.client?.cgroups).toEqual({ parent: 'svc-prod', pidsLimit: 512, memoryOversubscription: true });
    const yaml = await load('b.yaml', 'client:\n  pids_limit: 0\n');
    expect(yaml.client?.cgroups).toEqual({ parent: undefined, pidsLimit: 0, memoryOversubscription: undefined });
    expect((await load('c.hcl', 'client {\n  enabled = true\n}\n')).client?.cgroups).toBeUndefined();
  });

  it('refuses a parent that is not one directory name, a pids limit that is not a whole number, and a non-boolean', async () => {
    await expect(load('d.hcl', 'client {\n  cgroup_parent = "../escape"\n}\n')).rejects.toThrow('"client.cgroup_parent" must be one directory name');
    await expect(load('e.hcl', 'client {\n  pids_limit = -1\n}\n')).rejects.toThrow('"client.pids_limit" must be a whole number of processes (0 for no limit)');
    await expect(load('f.hcl', 'client {\n  memory_oversubscription = "yes"\n}\n')).rejects.toThrow('"client.memory_oversubscription" must be a boolean');
  });
});
