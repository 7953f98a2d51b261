/**
 * What the events carry, on the memory store: each payload in the shape the REST endpoint answers for the
 * record as it was at that index, the node's report named AllocationUpdated, and no secret anywhere: not
 * a node's SecretID, not a task's token.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventStream, type EventFrame, type StreamEvent } from '../../../src/api/events.js';
import { startInProcessServer, type InProcessServer } from '../../support/in-process.js';
import { fakeNode, registerFakeNode } from '../../support/nodes.js';
import { until } from '../../support/wait.js';

describe('event payloads', () => {
  let srv: InProcessServer;
  beforeAll(async () => {
    srv = await startInProcessServer();
  });
  afterAll(async () => srv?.close());

  it('are the REST shapes, and hold no node secret and no task token', async () => {
    await srv.client().secrets('PUT', 'sys/policies/acl/app-read', { body: { policy: 'path "secret/*" { capabilities = ["read"] }' } });
    const n = fakeNode();
    await registerFakeNode(srv.client(), n);
    const job = {
      ID: 'web',
      Type: 'service',
      Datacenters: ['dc1'],
      TaskGroups: [{ Name: 'g', Count: 1, Tasks: [{ Name: 'app', Driver: 'mock', Config: {}, Resources: { CPU: 100, MemoryMB: 64 }, Vault: { Policies: ['app-read'] } }] }],
    };
    await srv.client().scheduler('POST', '/v1/jobs', { body: { Job: job } });
    const alloc = await until(
      async () => (await srv.client().scheduler<Array<{ ID: string }>>('GET', '/v1/job/web/allocations')).body[0],
      (a) => a !== undefined,
      'the allocation',
    );
    const derived = await srv.client(n.secret).scheduler<{ Tasks: Record<string, string> }>('POST', `/v1/node/${n.node.ID}/derive-token`, { body: { AllocID: alloc.ID, Tasks: ['app'] } });
    const taskToken = derived.body.Tasks.app;
    expect(taskToken).toBeTruthy();
    const state = { State: 'running', Failed: false, Restarts: 0, LastRestart: '0001-01-01T00:00:00Z', StartedAt: '0001-01-01T00:00:00Z', FinishedAt: '0001-01-01T00:00:00Z', Events: [], Paused: '' };
    await srv.client(n.secret).scheduler('POST', `/v1/node/${n.node.ID}/client-allocations`, {
      body: { Allocs: [{ ID: alloc.ID, ClientStatus: 'running', ClientDescription: '', TaskStates: { app: state } }] },
    });

    // Everything the buffer holds, from the start.
    const frames: EventFrame[] = [];
    const abort = new AbortController();
    const reading = (async () => {
      for await (const f of await eventStream(srv.client(), { signal: abort.signal })) frames.push(f);
    })();
    const events = (): StreamEvent[] => frames.flatMap((f) => f.Events);
    const running = await until(
      async () => events().find((e) => e.Topic === 'Allocation' && (e.Payload.Allocation as { ClientStatus: string }).ClientStatus === 'running'),
      (e) => e !== undefined,
      "the node's report",
    );
    abort.abort();
    await reading.catch(() => undefined);

    expect(running!.Type).toBe('AllocationUpdated');
    const last = (topic: string, key: string) => events().filter((e) => e.Topic === topic && e.Key === key).at(-1)!;
    // The record as the REST endpoint answers it now, which is as the last event left it.
    expect(last('Job', 'web').Payload.Job).toEqual((await srv.client().scheduler('GET', '/v1/job/web')).body);
    expect(last('Node', n.node.ID).Payload.Node).toEqual((await srv.client().scheduler('GET', `/v1/node/${n.node.ID}`)).body);
    const evalEvent = events().filter((e) => e.Topic === 'Evaluation').at(-1)!;
    expect(evalEvent.Payload.Evaluation).toEqual((await srv.client().scheduler('GET', `/v1/evaluation/${evalEvent.Key}`)).body);
    const { Job: _job, ...allocRest } = (await srv.client().scheduler<Record<string, unknown>>('GET', `/v1/allocation/${alloc.ID}`)).body;
    const { Resources: _r, TaskResources: _t, ...restWithoutLegacy } = allocRest;
    expect(last('Allocation', alloc.ID).Payload.Allocation).toEqual(restWithoutLegacy);

    const everything = JSON.stringify(frames);
    expect(everything).not.toContain(taskToken);
    expect(everything).not.toContain(n.secret);
    expect(everything).not.toContain('SecretID');
  });
});
