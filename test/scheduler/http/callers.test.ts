/**
 * Who a scheduler route's handler is called for: a route's ACL kind decides it. Token routes get a token
 * caller (with its accessor and ACL), node routes the node named by the path, registration either the
 * node that proves itself or a management token. The types hold it (a handler cannot read a token a
 * node route never has), and the pipeline serves it, run here on the real server's services.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RawRequest } from '../../../src/framework/http/types.js';
import { handleScheduler } from '../../../src/scheduler/http/pipeline.js';
import type { Caller } from '../../../src/scheduler/http/caller.js';
import { defineRoute, type RouteDef } from '../../../src/scheduler/http/route.js';
import { startInProcessServer, type InProcessServer } from '../../support/in-process.js';
import { fakeNode, registerFakeNode, type FakeNode } from '../../support/nodes.js';

// A node route's handler is given a node, which has no token to read.
// @ts-expect-error the caller of a nodeSecret route is a NodeCaller
defineRoute({ methods: ['GET'], path: '/v1/x/:node_id', acl: { nodeSecret: true }, synopsis: '', handler: async (req) => ({ body: req.caller.token.accessor }) });
// A registration may come from a node: the handler must narrow before reading a token.
// @ts-expect-error the caller of a nodeRegistration route is a Caller (token or node)
defineRoute({ methods: ['PUT'], path: '/v1/x/register', acl: { nodeRegistration: true }, synopsis: '', handler: async (req) => ({ body: req.caller.token.accessor }) });
defineRoute({ methods: ['PUT'], path: '/v1/x/register', acl: { nodeRegistration: true }, synopsis: '', handler: async (req) => ({ body: req.caller.kind === 'token' ? req.caller.token.accessor : req.caller.nodeId }) });
// Any other route answers tokens only: its handler reads the token without narrowing.
defineRoute({ methods: ['PUT'], path: '/v1/x', acl: { namespace: ['submit-job'] }, synopsis: '', handler: async (req) => ({ body: req.caller.token.accessor }) });

/** Routes that answer with the caller they were given. */
const seen: Caller[] = [];
const echo = async (req: { caller: Caller }) => {
  seen.push(req.caller);
  return { body: null };
};
const routes: RouteDef[] = [
  defineRoute({ methods: ['PUT'], path: '/v1/echo/node/:node_id', acl: { nodeSecret: true }, synopsis: 'node', handler: echo }),
  defineRoute({ methods: ['PUT'], path: '/v1/echo/register', acl: { nodeRegistration: true }, synopsis: 'registration', handler: echo }),
  defineRoute({ methods: ['PUT'], path: '/v1/echo/job', acl: { namespace: ['submit-job'] }, synopsis: 'token', handler: echo }),
];

describe('scheduler route callers', () => {
  let ts: InProcessServer;
  let node: FakeNode;
  let rootAccessor: string;
  let writer: { secret: string; accessor: string };

  beforeAll(async () => {
    ts = await startInProcessServer();
    node = fakeNode();
    await registerFakeNode(ts.client(), node);
    rootAccessor = String((await ts.client().secrets('GET', 'auth/token/lookup-self'))?.data?.accessor);
    await ts.client().secrets('PUT', 'sys/policies/acl/submitter', { body: { policy: 'namespace "default" { policy = "write" }' } });
    const created = await ts.client().secrets('POST', 'auth/token/create', { body: { policies: ['submitter'] } });
    writer = { secret: String(created?.auth?.client_token), accessor: String(created?.auth?.accessor) };
  });
  afterAll(async () => ts?.close());

  async function call(path: string, token: string, body: unknown = {}): Promise<{ status: number; caller?: Caller }> {
    const raw: RawRequest = {
      method: 'PUT',
      path,
      query: new URLSearchParams(),
      headers: { 'x-svc-token': token },
      body: Buffer.from(JSON.stringify(body)),
      remoteAddress: '127.0.0.1',
    };
    seen.length = 0;
    const answer = await handleScheduler(raw, path.split('/').slice(1), 'test-request', ts.server.services, routes);
    return { status: answer!.status, caller: seen[0] };
  }

  it('a node route is served to the node named by the path, never to a token', async () => {
    expect(await call(`/v1/echo/node/${node.node.ID}`, node.secret)).toEqual({ status: 200, caller: { kind: 'node', nodeId: node.node.ID } });
    expect(await call(`/v1/echo/node/${node.node.ID}`, ts.rootToken)).toEqual({ status: 403, caller: undefined });
    expect(await call(`/v1/echo/node/${fakeNode().node.ID}`, node.secret)).toEqual({ status: 403, caller: undefined });
  });

  it('a registration is served to the node that proves itself, or to a management token', async () => {
    const asNode = await call('/v1/echo/register', node.secret, { Node: { ID: node.node.ID } });
    expect(asNode).toEqual({ status: 200, caller: { kind: 'node', nodeId: node.node.ID } });
    const asRoot = await call('/v1/echo/register', ts.rootToken, { Node: { ID: fakeNode().node.ID } });
    expect(asRoot.status).toBe(200);
    expect(asRoot.caller).toMatchObject({ kind: 'token', token: { accessor: rootAccessor } });
    expect(await call('/v1/echo/register', writer.secret, { Node: { ID: node.node.ID } })).toEqual({ status: 403, caller: undefined });
  });

  it('any other route is served to a token, with its accessor and ACL, never to a node', async () => {
    const asWriter = await call('/v1/echo/job', writer.secret);
    expect(asWriter.status).toBe(200);
    expect(asWriter.caller).toMatchObject({ kind: 'token', token: { accessor: writer.accessor } });
    expect(asWriter.caller?.kind === 'token' && asWriter.caller.acl.allowsNamespace('default', 'submit-job')).toBe(true);
    expect(await call('/v1/echo/job', node.secret)).toEqual({ status: 403, caller: undefined });
  });
});
