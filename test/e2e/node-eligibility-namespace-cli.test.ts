/**
 * svc node eligibility and svc namespace status through the built bin/svc against a real server with
 * its own node.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server.js';
import { getNode, listNodes } from '../../src/api/nodes.js';

let srv: TestServer;
let nodeId: string;

beforeAll(async () => {
  srv = await startTestServer();
  nodeId = (await listNodes(srv.client()))[0].ID;
});

afterAll(async () => {
  await srv.close();
});

const eligibility = async () => (await getNode(srv.client(), nodeId)).SchedulingEligibility;

describe('svc node eligibility', () => {
  it('-disable by ID prefix makes the node ineligible and says so as Nomad does', async () => {
    const r = await srv.cli(['node', 'eligibility', '-disable', nodeId.slice(0, 8)]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout.trim()).toBe(`Node "${nodeId}" scheduling eligibility set: ineligible for scheduling`);
    expect(await eligibility()).toBe('ineligible');
  });

  it('-enable makes the node eligible again', async () => {
    const r = await srv.cli(['node', 'eligibility', '-enable', nodeId]);
    expect(r.code).toBe(0);
    expect(r.stdout.trim()).toBe(`Node "${nodeId}" scheduling eligibility set: eligible for scheduling`);
    expect(await eligibility()).toBe('eligible');
  });

  it('refuses neither or both of -enable and -disable and changes nothing', async () => {
    for (const flags of [[], ['-enable', '-disable']]) {
      const r = await srv.cli(['node', 'eligibility', ...flags, nodeId]);
      expect(r.code).not.toBe(0);
      expect(r.stderr).toContain('Either the -enable or the -disable flag must be set, but not both');
    }
    expect(await eligibility()).toBe('eligible');
  });

  it('an unknown node prefix fails with exit 1', async () => {
    const r = await srv.cli(['node', 'eligibility', '-disable', 'ffffffff']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('No node(s) with prefix "ffffffff" found');
    expect(await eligibility()).toBe('eligible');
  });

  it('a token without node:write gets the server\'s refusal', async () => {
    const r = await srv.cli(['node', 'eligibility', '-disable', nodeId], { token: '' });
    expect(r.code).toBe(1);
    expect(await eligibility()).toBe('eligible');
  });
});

describe('svc namespace status', () => {
  it('shows the default namespace\'s name and description', async () => {
    const r = await srv.cli(['namespace', 'status', 'default']);
    expect(r.code).toBe(0);
    expect(r.stdout.trim()).toBe('Name        = default\nDescription = Default shared namespace');
  });

  it('adds a Metadata section when the namespace has metadata, and <none> for no description', async () => {
    await srv.client().scheduler('PUT', '/v1/namespace/web', { body: { Name: 'web', Meta: { team: 'edge', tier: 'front' } } });
    const r = await srv.cli(['namespace', 'status', 'web']);
    expect(r.code).toBe(0);
    expect(r.stdout.trim()).toBe('Name        = web\nDescription = <none>\n\nMetadata\nteam = edge\ntier = front');
  });

  it('-json prints the namespace as the API returns it', async () => {
    const r = await srv.cli(['namespace', 'status', '-json', 'web']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ Name: 'web', Meta: { team: 'edge', tier: 'front' } });
  });

  it('an unknown namespace fails', async () => {
    const r = await srv.cli(['namespace', 'status', 'nope']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('namespace not found');
  });
});
