import http from 'node:http';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RawAnswer } from '../../src/api/http/client.js';
import { startTestServer, type TestServer } from '../support/server.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

const answerOf = (a: RawAnswer): Answer => ({ status: a.status, headers: a.headers, text: a.body.toString('utf8') });
const json = (a: Answer) => JSON.parse(a.text) as Record<string, unknown>;

/** Sends bytes over a plain TCP socket and parses the single HTTP/1.1 answer (the server closes after it). */
function rawExchange(port: number, request: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', reject);
    socket.on('end', () => {
      const all = Buffer.concat(chunks).toString('utf8');
      const split = all.indexOf('\r\n\r\n');
      const [statusLine, ...headerLines] = all.slice(0, split).split('\r\n');
      const headers: Record<string, string> = {};
      for (const line of headerLines) headers[line.slice(0, line.indexOf(':')).toLowerCase()] = line.slice(line.indexOf(':') + 1).trim();
      const text = all.slice(split + 4);
      expect(Buffer.byteLength(text)).toBe(Number(headers['content-length']));
      resolve({ status: Number(statusLine.split(' ')[1]), headers, text });
    });
    socket.end(request);
  });
}

/** A request whose body is streamed in chunks with no content-length, so only the running count can refuse it. */
function chunkedPost(port: number, path: string, chunks: Buffer[]): Promise<Answer> {
  return new Promise((resolve, reject) => {
    let answered = false;
    const req = http.request({ host: '127.0.0.1', port, path, method: 'POST', headers: { 'transfer-encoding': 'chunked' }, agent: false }, (res) => {
      answered = true;
      const body: Buffer[] = [];
      res.on('data', (c: Buffer) => body.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(body).toString('utf8') }));
    });
    // The server may close the connection as soon as it has refused the body; that is not a failure.
    req.on('error', (err) => (answered ? undefined : reject(err)));
    for (const c of chunks) req.write(c);
    req.end();
  });
}

describe('HTTP behaviour of the real server', () => {
  let ts: TestServer;
  let port: number;

  const call = async (method: string, path: string, opts: { body?: unknown; query?: Record<string, string | number>; token?: string } = {}) =>
    answerOf(await ts.client(opts.token).request(method, path, { body: opts.body, query: opts.query }));

  beforeAll(async () => {
    // No node: its blocking pull would count among the waits the blocking-query tests count.
    ts = await startTestServer({ client: false });
    port = Number(new URL(ts.url).port);
    const policy = await call('PUT', '/v1/sys/policies/acl/http-test', { body: { policy: 'path "sys/health" { capabilities = ["read"] }' } });
    expect(policy.status).toBe(204);
  });
  afterAll(async () => {
    await ts?.close();
  });

  describe('answer framing', () => {
    it('an answer made whole states its length instead of coming in chunks, on both sides; a 204 and a HEAD state none', async () => {
      for (const [method, path, token] of [['GET', '/v1/sys/health', undefined], ['GET', '/v1/auth/token/lookup-self', undefined], ['GET', '/v1/status/leader', undefined], ['GET', '/v1/agent/self', undefined], ['GET', '/v1/nope/nope', undefined], ['GET', '/v1/jobs', '']] as const) {
        const a = await call(method, path, { token });
        expect(a.headers['transfer-encoding'], `${method} ${path}`).toBeUndefined();
        expect(Number(a.headers['content-length']), `${method} ${path}`).toBe(Buffer.byteLength(a.text));
      }
      const written = await call('PUT', '/v1/sys/policies/acl/framing', { body: { policy: 'path "x" { capabilities = ["read"] }' } });
      expect(written.status).toBe(204);
      expect(written.headers['content-length']).toBeUndefined();
      const head = await call('HEAD', '/v1/sys/health');
      expect(head.status).toBe(200);
      expect(head.headers['content-length']).toBeUndefined();
    });
  });

  describe('unknown paths and methods', () => {
    it('an unknown secrets path is a 404 with a JSON errors body', async () => {
      for (const path of ['/v1/sys/no-such-thing', '/v1/auth/no-such-mount/login', '/v1/identity/nothing/here']) {
        const a = await call('GET', path);
        expect(a.status, path).toBe(404);
        expect(a.headers['content-type']).toBe('application/json');
        expect(json(a).errors).toEqual([expect.any(String)]);
      }
    });

    it('an unknown scheduler path is a 404 with a plain-text body', async () => {
      const a = await call('GET', '/v1/no-such-resource');
      expect(a.status).toBe(404);
      expect(a.headers['content-type']).toMatch(/^text\/plain/);
      expect(a.text).toBe('resource not found');
    });

    it('a caller with no token or an unknown one is refused with 403 on every path, existing or not', async () => {
      for (const token of ['', 'not-a-token']) {
        for (const path of ['/v1/no-such-resource', '/v1/jobz', '/v1/secret/data/x', '/no-v1/at/all', '/v1/job/x/no-such-suffix', '/v1/namespace/%zz']) {
          const a = await call('GET', path, { token });
          expect([a.status, a.text], `${path} with token "${token}"`).toEqual([403, token ? 'ACL token not found' : 'Permission denied']);
        }
        for (const path of ['/v1/sys/no-such-thing', '/v1/auth/no-such-mount/login', '/v1/identity/nothing/here']) {
          const a = await call('GET', path, { token });
          expect(a.status, `${path} with token "${token}"`).toBe(403);
          expect(json(a).errors).toEqual(['permission denied']);
        }
      }
      // What needs no token still answers without one.
      expect((await call('GET', '/v1/sys/health', { token: '' })).status).toBe(200);
    });

    it('a known path with a method it does not serve is a 405', async () => {
      const secrets = await call('DELETE', '/v1/sys/health');
      expect(secrets.status).toBe(405);
      expect(json(secrets).errors).toEqual(['unsupported operation']);
      // The listing path takes no PATCH (the policy path itself does: test/server/patch.test.ts).
      const patch = await call('PATCH', '/v1/sys/policies/acl');
      expect(patch.status).toBe(405);
      const scheduler = await call('PATCH', '/v1/namespaces');
      expect(scheduler.status).toBe(405);
      expect(scheduler.text).toBe('Invalid method');
    });

    it('a job suffix with a method it does not serve is a 405 (after the token check), never an action on a job named after the suffix', async () => {
      const job = { ID: 'web', Type: 'batch', Datacenters: ['dc1'], TaskGroups: [{ Name: 'g', Tasks: [{ Name: 't', Driver: 'raw_exec', Config: { command: 'true' } }] }] };
      expect((await call('POST', '/v1/jobs', { body: { Job: job } })).status).toBe(200);
      const stop = await call('DELETE', '/v1/job/web/evaluations');
      expect([stop.status, stop.text]).toEqual([405, 'Invalid method']);
      const anonymous = await call('DELETE', '/v1/job/web/evaluations', { token: '' });
      expect([anonymous.status, anonymous.text]).toEqual([403, 'Permission denied']);
      const unknownToken = await call('PATCH', '/v1/namespaces', { token: 'not-a-token' });
      expect(unknownToken.status).toBe(403);
      // The job is untouched; a job whose ID holds a slash is named with it encoded.
      const read = await call('GET', '/v1/job/web');
      expect([read.status, (json(read) as { Stop: boolean }).Stop]).toEqual([200, false]);
      const encoded = await call('GET', '/v1/job/web%2Fevaluations');
      expect([encoded.status, encoded.text]).toEqual([404, 'job not found']);
    });

    it('a malformed percent-encoding in the path is a 400, not a 500', async () => {
      const a = await call('GET', '/v1/namespace/%zz');
      expect(a.status).toBe(400);
      expect(a.text).toContain('invalid URL path encoding');
    });
  });

  describe('malformed bodies', () => {
    it('the error names the problem without quoting the body, which may hold a secret', async () => {
      const secrets = await call('PUT', '/v1/sys/policies/acl/broken', { body: '{"policy": hunter2-secret}' });
      expect(secrets.status).toBe(400);
      expect(json(secrets).errors).toEqual(["failed to parse JSON input: Unexpected token 'h' (not valid JSON)"]);
      const scheduler = await call('POST', '/v1/jobs', { body: '{"Job": hunter2-secret}' });
      expect([scheduler.status, scheduler.text]).toEqual([400, "Failed to decode request body: Unexpected token 'h' (not valid JSON)"]);
    });

    it('malformed JSON on the secrets side is a 400 naming the problem', async () => {
      const a = await call('PUT', '/v1/sys/policies/acl/broken', { body: '{"policy": ' });
      expect(a.status).toBe(400);
      expect((json(a).errors as string[])[0]).toMatch(/^failed to parse JSON input: /);
      const array = await call('PUT', '/v1/sys/policies/acl/broken', { body: '["policy"]' });
      expect(array.status).toBe(400);
      expect(json(array).errors).toEqual(['failed to parse JSON input: the body must be a JSON object']);
      const scalar = await call('PUT', '/v1/auth/token/create', { body: '42' });
      expect(scalar.status).toBe(400);
    });

    it('malformed JSON on the scheduler side is a plain-text 400', async () => {
      const a = await call('POST', '/v1/namespace/broken', { body: '{Name:' });
      expect(a.status).toBe(400);
      expect(a.text).toMatch(/^Failed to decode request body: /);
      const notObject = await call('POST', '/v1/namespace/broken', { body: '"just a string"' });
      expect(notObject.status).toBe(400);
    });
  });

  describe('request IDs', () => {
    it('every answer carries x-svc-request-id, errors included, each one different', async () => {
      const answers = [
        await call('GET', '/v1/sys/health'),
        await call('GET', '/v1/sys/policies/acl/http-test'),
        await call('PUT', '/v1/sys/policies/acl/http-test-2', { body: { policy: 'path "x" { capabilities = ["read"] }' } }),
        await call('GET', '/v1/sys/no-such-thing'),
        await call('DELETE', '/v1/sys/health'),
        await call('GET', '/v1/sys/policies/acl', { token: '' }),
        await call('PUT', '/v1/sys/policies/acl/broken', { body: '{' }),
        await call('GET', '/v1/namespaces'),
        await call('GET', '/v1/no-such-resource'),
        await call('GET', '/v1/namespaces', { token: '' }),
      ];
      expect(answers.map((a) => a.status)).toEqual([200, 200, 204, 404, 405, 403, 400, 200, 404, 403]);
      const ids = answers.map((a) => a.headers['x-svc-request-id']);
      for (const id of ids) expect(id).toMatch(UUID);
      expect(new Set(ids).size).toBe(ids.length);
    });

    it('a successful read answers with request_id equal to the header', async () => {
      const a = await call('GET', '/v1/sys/policies/acl/http-test');
      expect(json(a).request_id).toBe(a.headers['x-svc-request-id']);
    });
  });

  describe('LIST', () => {
    it('a raw LIST request over TCP is answered with the keys and a request ID', async () => {
      const a = await rawExchange(port, `LIST /v1/sys/policies/acl HTTP/1.1\r\nHost: x\r\nX-Svc-Token: ${ts.rootToken}\r\n\r\n`);
      expect(a.status).toBe(200);
      expect(a.headers['content-type']).toBe('application/json');
      expect(a.headers['x-svc-request-id']).toMatch(UUID);
      const keys = (json(a).data as { keys: string[] }).keys;
      expect(keys).toEqual(expect.arrayContaining(['default', 'http-test']));
    });

    it('a raw LIST goes through the ACL like any request', async () => {
      const a = await rawExchange(port, 'LIST /v1/sys/policies/acl HTTP/1.1\r\nHost: x\r\n\r\n');
      expect(a.status).toBe(403);
      expect(json(a).errors).toEqual(['permission denied']);
      expect(a.headers['x-svc-request-id']).toMatch(UUID);
    });

    it('GET ?list=true answers the same keys as LIST', async () => {
      const viaList = await rawExchange(port, `LIST /v1/sys/policies/acl/ HTTP/1.1\r\nHost: x\r\nX-Svc-Token: ${ts.rootToken}\r\n\r\n`);
      for (const flag of ['true', '1', 't']) {
        const viaGet = await call('GET', '/v1/sys/policies/acl', { query: { list: flag } });
        expect(viaGet.status).toBe(200);
        expect((json(viaGet).data as { keys: string[] }).keys).toEqual((json(viaList).data as { keys: string[] }).keys);
      }
      const notList = await call('GET', '/v1/sys/policies/acl/http-test', { query: { list: 'false' } });
      expect(notList.status).toBe(200);
      expect(json(notList).data).toHaveProperty('name', 'http-test');
    });

    it('?list=notabool is a 400', async () => {
      const a = await call('GET', '/v1/sys/policies/acl', { query: { list: 'notabool' } });
      expect(a.status).toBe(400);
      expect((json(a).errors as string[])[0]).toContain('"notabool"');
    });
  });

  describe('warnings', () => {
    it('unknown body parameters are reported, not silently dropped', async () => {
      const a = await call('POST', '/v1/auth/token/create', { body: { policies: ['default'], bogus_one: 1, another: 'x' } });
      expect(a.status).toBe(200);
      expect(json(a).warnings).toContain('Endpoint ignored these unrecognized parameters: [another bogus_one]');
      expect((json(a).auth as { client_token: string }).client_token).toBeTruthy();
    });

    it('unknown query parameters on a read are reported too', async () => {
      const a = await call('GET', '/v1/sys/policies/acl/http-test', { query: { surprise: 'x' } });
      expect(a.status).toBe(200);
      expect(json(a).warnings).toEqual(['Endpoint ignored these unrecognized parameters: [surprise]']);
    });

    it('an answer with nothing to say has no warnings key set', async () => {
      const a = await call('GET', '/v1/sys/policies/acl/http-test');
      expect(json(a).warnings).toBeNull();
    });
  });

  describe('blocking queries', () => {
    const indexOf = (a: Answer) => Number(a.headers['x-svc-index']);

    it('a blocked list returns once a namespace is written, with a higher index', async () => {
      const store = ts.server.services.store;
      const original = store.waitForIndex;
      let blockedNow!: () => void;
      const blocked = new Promise<string>((resolve) => (blockedNow = () => resolve('blocked')));
      store.waitForIndex = (after, timeoutMs, table) => {
        blockedNow();
        return original.call(store, after, timeoutMs, table);
      };
      try {
        const before = await call('GET', '/v1/namespaces');
        const index = indexOf(before);
        expect(index).toBeGreaterThan(0);
        // Other tables have been written since the namespaces changed, so the store's index is already past
        // `index`: the wait must be for a newer write, not for the store to pass `index`.
        expect(ts.server.services.store.index()).toBeGreaterThan(index);
        const pending = call('GET', '/v1/namespaces', { query: { index, wait: '20s' } });
        // The request must be waiting on the store before the write, or this test proves nothing.
        expect(await Promise.race([blocked, pending.then(() => 'answered')])).toBe('blocked');
        const write = await call('POST', '/v1/namespace/blocking-test', { body: { Description: 'woken' } });
        expect(write.status).toBe(200);
        const answer = await pending;
        expect(answer.status).toBe(200);
        expect(indexOf(answer)).toBeGreaterThan(index);
        expect((JSON.parse(answer.text) as Array<{ Name: string }>).map((n) => n.Name)).toContain('blocking-test');
      } finally {
        store.waitForIndex = original;
      }
    });

    it('with no change it waits, then answers with the same index', async () => {
      const store = ts.server.services.store;
      const original = store.waitForIndex;
      let waits = 0;
      store.waitForIndex = (after, timeoutMs, table) => {
        // The server's own loops (broker, drainer, periodic launcher) wait on their tables; a blocking query on any write.
        if (table === undefined) waits++;
        return original.call(store, after, timeoutMs, table);
      };
      try {
        const index = indexOf(await call('GET', '/v1/namespaces'));
        // A write elsewhere moves the store past the namespaces' index without changing them.
        await call('PUT', '/v1/sys/policies/acl/unrelated', { body: { policy: 'path "x" { capabilities = ["read"] }' } });
        expect(ts.server.services.store.index()).toBeGreaterThan(index);
        const answer = await call('GET', '/v1/namespaces', { query: { index, wait: '50ms' } });
        expect(answer.status).toBe(200);
        expect(indexOf(answer)).toBe(index);
        expect(waits).toBeGreaterThan(0);
        // Nothing is written meanwhile, so one wait is enough; many mean the loop spins and starves the server.
        expect(waits).toBeLessThan(5);
      } finally {
        store.waitForIndex = original;
      }
    });

    it('every answer has the index headers', async () => {
      const a = await call('GET', '/v1/namespace/default');
      expect(a.status).toBe(200);
      expect(indexOf(a)).toBeGreaterThan(0);
      expect(a.headers['x-svc-knownleader']).toBe('true');
      expect(a.headers['x-svc-lastcontact']).toBe('0');
    });

    it('a bad wait or index is a 400', async () => {
      for (const wait of ['abc', '10', '-5s']) {
        const a = await call('GET', '/v1/namespaces', { query: { index: 1, wait } });
        expect(a.status, wait).toBe(400);
        expect(a.text).toBe('Invalid wait time');
      }
      for (const index of ['-1', 'abc', '1.5']) {
        const a = await call('GET', '/v1/namespaces', { query: { index } });
        expect(a.status, index).toBe(400);
        expect(a.text).toBe('Invalid index');
      }
    });
  });

  describe('tokens and ACLs', () => {
    it('no token is a 403 on both sides, and a made-up token too', async () => {
      const secrets = await call('GET', '/v1/sys/policies/acl/http-test', { token: '' });
      expect(secrets.status).toBe(403);
      expect(json(secrets).errors).toEqual(['permission denied']);
      const scheduler = await call('GET', '/v1/namespaces', { token: '' });
      expect(scheduler.status).toBe(403);
      expect(scheduler.text).toBe('Permission denied');
      const forged = await call('GET', '/v1/sys/policies/acl/http-test', { token: 'hvs.not-a-real-token' });
      expect(forged.status).toBe(403);
      const forgedScheduler = await call('GET', '/v1/namespaces', { token: 'not-a-real-token' });
      expect(forgedScheduler.status).toBe(403);
    });

    it('an unauthenticated path needs no token', async () => {
      const a = await call('GET', '/v1/sys/health', { token: '' });
      expect(a.status).toBe(200);
      expect(json(a).initialized).toBe(true);
    });

    it('the token can come as a Bearer authorization header', async () => {
      const a = answerOf(
        await ts.client('').request('GET', '/v1/sys/policies/acl/http-test', { headers: { authorization: `Bearer ${ts.rootToken}` } }),
      );
      expect(a.status).toBe(200);
    });

    it('a namespace read policy may read its namespace but not write namespaces', async () => {
      const policy = await call('PUT', '/v1/sys/policies/acl/ns-reader', { body: { policy: 'namespace "default" {\n  policy = "read"\n}\n' } });
      expect(policy.status).toBe(204);
      const created = await call('POST', '/v1/auth/token/create', { body: { policies: ['ns-reader'] } });
      expect(created.status).toBe(200);
      const token = (json(created).auth as { client_token: string }).client_token;

      const read = await call('GET', '/v1/namespace/default', { token });
      expect(read.status).toBe(200);
      expect(json(read).Name).toBe('default');
      const write = await call('POST', '/v1/namespace/x', { token, body: { Description: 'no' } });
      expect(write.status).toBe(403);
      expect(write.text).toBe('Permission denied');
      const del = await call('DELETE', '/v1/namespace/blocking-test', { token });
      expect(del.status).toBe(403);

      const other = await call('POST', '/v1/namespace/hidden', { body: { Description: 'not for readers' } });
      expect(other.status).toBe(200);
      const hidden = await call('GET', '/v1/namespace/hidden', { token });
      expect(hidden.status).toBe(403);
      const listed = await call('GET', '/v1/namespaces', { token });
      expect((JSON.parse(listed.text) as Array<{ Name: string }>).map((n) => n.Name)).toEqual(['default']);

      // The same token has no secrets-side rule, so the policy API is closed to it.
      const secrets = await call('GET', '/v1/sys/policies/acl/http-test', { token });
      expect(secrets.status).toBe(403);
    });
  });
});

describe('request size limit', () => {
  let ts: TestServer;
  let port: number;
  const LIMIT = 1024;

  beforeAll(async () => {
    ts = await startTestServer({ maxRequestBytes: LIMIT });
    port = Number(new URL(ts.url).port);
  });
  afterAll(async () => {
    await ts?.close();
  });

  const big = () => ({ policy: `# ${'x'.repeat(LIMIT * 4)}\npath "x" { capabilities = ["read"] }` });

  it('a declared body over the limit is a 413, JSON on the secrets side, with its own request ID', async () => {
    const earlier = answerOf(await ts.client().request('GET', '/v1/sys/no-such-thing'));
    expect(earlier.status).toBe(404);
    const a = answerOf(await ts.client().request('PUT', '/v1/sys/policies/acl/too-big', { body: big() }));
    expect(a.status).toBe(413);
    expect((json(a).errors as string[])[0]).toContain(`${LIMIT} bytes`);
    expect(a.headers['x-svc-request-id']).toMatch(UUID);
    // An ID left over from an earlier answer would point whoever reads the logs at the wrong request.
    expect(a.headers['x-svc-request-id']).not.toBe(earlier.headers['x-svc-request-id']);
    const after = await ts.client().request('GET', '/v1/sys/policies/acl/too-big');
    expect(after.status).toBe(404);
  });

  it('a declared body over the limit is a plain-text 413 on the scheduler side', async () => {
    const a = answerOf(await ts.client().request('POST', '/v1/namespace/too-big', { body: { Description: 'y'.repeat(LIMIT * 2) } }));
    expect(a.status).toBe(413);
    expect(a.headers['content-type']).toMatch(/^text\/plain/);
    expect(a.text).toContain(`${LIMIT} bytes`);
    expect(a.headers['x-svc-request-id']).toMatch(UUID);
  });

  it('a streamed body is cut off once it passes the limit', async () => {
    const chunk = Buffer.alloc(512, 'a');
    const a = await chunkedPost(port, '/v1/sys/policies/acl/streamed', [chunk, chunk, chunk, chunk]);
    expect(a.status).toBe(413);
  });

  it('a body at the limit is accepted', async () => {
    const policy = 'path "x" { capabilities = ["read"] }\n';
    const body = JSON.stringify({ policy: policy + '#'.repeat(LIMIT - JSON.stringify({ policy }).length - 2) + '\n' });
    expect(Buffer.byteLength(body)).toBe(LIMIT);
    const a = await ts.client().request('PUT', '/v1/sys/policies/acl/just-fits', { body });
    expect(a.status).toBe(204);
  });
});
