import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fingerprintNode } from '../../src/client/fingerprint.js';
import { nodeTarget } from '../../src/scheduler/structs/node.js';
import { VERSION } from '../../src/version.js';
import { tempDir } from './helpers.js';

const tmp = tempDir();
afterAll(() => tmp.cleanup());

const opts = { datacenter: 'dc1', nodeClass: 'web', meta: { rack: 'r7' }, dataDir: tmp.dir, httpAddr: '10.1.2.3:4646' };

describe('fingerprintNode', () => {
  it('keeps the same ID and secret across restarts, stored in the data dir', async () => {
    const a = await fingerprintNode(opts);
    const b = await fingerprintNode(opts);
    expect(a.node.ID).toMatch(/^[0-9a-f-]{36}$/);
    expect(b.node.ID).toBe(a.node.ID);
    expect(b.secret).toBe(a.secret);
    expect(a.secret).not.toBe(a.node.ID);
    expect(readFileSync(path.join(tmp.dir, 'client/node-id'), 'utf8').trim()).toBe(a.node.ID);
  });

  it('describes the host with Nomad’s attribute names', async () => {
    const { node } = await fingerprintNode(opts);
    const a = node.Attributes;
    expect(a['kernel.name']).toBe('linux');
    expect(a['kernel.version']).toBe(os.release());
    expect(a['kernel.arch']).toBe(os.machine());
    expect(a['cpu.arch']).toBe(({ x64: 'amd64', arm64: 'arm64' } as Record<string, string>)[os.arch()] ?? os.arch());
    expect(Number(a['cpu.numcores'])).toBe(os.cpus().length);
    expect(Number(a['cpu.frequency'])).toBeGreaterThan(0);
    expect(Number(a['cpu.totalcompute'])).toBe(Number(a['cpu.numcores']) * Number(a['cpu.frequency']));
    expect(a['memory.totalbytes']).toBe(String(os.totalmem()));
    expect(a['os.name']).toMatch(/^[a-z]/);
    expect(a['unique.hostname']).toBe(os.hostname());
    expect(a['unique.network.ip-address']).toMatch(/^\d+\.\d+\.\d+\.\d+$/);
    expect(a['nomad.version']).toBe(VERSION);
    expect(a['driver.raw_exec']).toBe('1');
    expect(a['os.signals'].split(',')).toEqual(expect.arrayContaining(['SIGINT', 'SIGKILL', 'SIGTERM', 'SIGUSR1']));
    // constraints written for Nomad resolve against it
    expect(nodeTarget(node, '${attr.kernel.name}')).toBe('linux');
    expect(nodeTarget(node, '${meta.rack}')).toBe('r7');
  });

  it('reports resources, status and drivers', async () => {
    const { node } = await fingerprintNode(opts);
    expect(node.NodeResources.Cpu.CpuShares).toBe(Number(node.Attributes['cpu.totalcompute']));
    expect(node.NodeResources.Memory.MemoryMB).toBe(Math.floor(os.totalmem() / 1048576));
    expect(node.NodeResources.Disk.DiskMB).toBeGreaterThan(0);
    expect(node).toMatchObject({ Status: 'ready', SchedulingEligibility: 'eligible', Datacenter: 'dc1', NodeClass: 'web', NodePool: 'default', HTTPAddr: '10.1.2.3:4646' });
    expect(node.ComputedClass).toMatch(/^v1:\d+$/);
    expect(node.Drivers.raw_exec).toMatchObject({ Detected: true, Healthy: true, HealthDescription: 'Healthy' });
    expect(node.Drivers.exec.Detected).toBe(node.Drivers.exec.Healthy);
    expect(node.Drivers.exec.HealthDescription).not.toBe('');
    expect(node.Attributes['driver.exec'] === '1').toBe(node.Drivers.exec.Healthy);
    expect(node.Drivers.mock).toBeUndefined();
  });

  it('a node without an HTTP API of its own is known by its primary address', async () => {
    const { httpAddr: _none, ...withoutAddr } = opts;
    const { node } = await fingerprintNode(withoutAddr);
    expect(node.HTTPAddr).toBe(node.Attributes['unique.network.ip-address']);
    expect(node.Attributes['nomad.advertise.address']).toBe(node.HTTPAddr);
    expect(node.NodeResources.Networks?.[0].IP).toBe(node.HTTPAddr);
  });

  it('has the mock driver only when asked for', async () => {
    const { node } = await fingerprintNode({ ...opts, enableMockDriver: true });
    expect(node.Drivers.mock).toMatchObject({ Detected: true, Healthy: true });
    expect(node.Attributes['driver.mock']).toBe('1');
  });
});
