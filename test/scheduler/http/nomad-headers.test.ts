/**
 * What Nomad's own client needs of the headers, over real HTTP: it sends only `X-Nomad-Token` and reads
 * only `X-Nomad-Index`, `-KnownLeader`, `-LastContact` and `-NextToken`. A blocking query started from
 * the X-Nomad-Index of a read waits for the next write; paging follows X-Nomad-NextToken to the end.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../support/server.js';

describe('X-Nomad- headers', () => {
  let srv: TestServer;
  beforeAll(async () => {
    srv = await startTestServer({ client: false });
  });
  afterAll(async () => srv?.close());

  /** A request as Nomad's Go client makes it: its token under its own header name, nothing of svc's. */
  const nomad = (method: string, path: string, body?: unknown) =>
    fetch(`${srv.url}${path}`, { method, headers: { 'X-Nomad-Token': srv.rootToken }, body: body === undefined ? undefined : JSON.stringify(body) });

  const job = (id: string) => ({ ID: id, Type: 'batch', TaskGroups: [{ Name: 'g', Tasks: [{ Name: 't', Driver: 'raw_exec', Config: { command: '/bin/true' } }] }] });

  it('answers every query-meta header under both prefixes, equal, streamed listings included', async () => {
    for (const path of ['/v1/jobs', '/v1/namespaces', '/v1/agent/self', '/v1/allocations']) {
      const res = await nomad('GET', path);
      expect(res.status, path).toBe(200);
      for (const name of ['Index', 'KnownLeader', 'LastContact']) {
        expect(res.headers.get(`X-Nomad-${name}`), `${path} X-Nomad-${name}`).not.toBeNull();
        expect(res.headers.get(`X-Nomad-${name}`), path).toBe(res.headers.get(`X-Svc-${name}`));
      }
      expect(res.headers.get('X-Nomad-KnownLeader')).toBe('true');
    }
  });

  it('carries the index of a write under X-Nomad-Index', async () => {
    const res = await nomad('PUT', '/v1/jobs', { Job: job('written') });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { Index: number };
    expect(Number(res.headers.get('X-Nomad-Index'))).toBe(body.Index);
    expect(res.headers.get('X-Nomad-Index')).toBe(res.headers.get('X-Svc-Index'));
  });

  it('blocks a query started from X-Nomad-Index until a write moves it, as Nomad\'s client re-queries', async () => {
    const first = await nomad('GET', '/v1/jobs');
    let index = Number(first.headers.get('X-Nomad-Index'));
    expect(index).toBeGreaterThan(0);
    const blocked = nomad('GET', `/v1/jobs?index=${index}&wait=60000ms`);
    const written = await nomad('PUT', '/v1/jobs', { Job: job('wakes-the-query') });
    expect(written.status).toBe(200);
    // Each answer comes only once the index passed the one it was asked from (the scheduler's own writes
    // to the listing, a summary, may come first); the client asks again from there until it sees the job.
    let answer = await blocked;
    for (let rounds = 0; ; rounds++) {
      const next = Number(answer.headers.get('X-Nomad-Index'));
      expect(next).toBeGreaterThan(index);
      index = next;
      if (((await answer.json()) as { ID: string }[]).some((j) => j.ID === 'wakes-the-query')) break;
      expect(rounds).toBeLessThan(20);
      answer = await nomad('GET', `/v1/jobs?index=${index}&wait=60000ms`);
    }
  });

  it('pages with X-Nomad-NextToken until it is absent', async () => {
    for (const id of ['page-a', 'page-b', 'page-c']) expect((await nomad('PUT', '/v1/jobs', { Job: job(id) })).status).toBe(200);
    const seen: string[] = [];
    let token = '';
    for (let pages = 0; pages < 10; pages++) {
      const res = await nomad('GET', `/v1/jobs?prefix=page-&per_page=2${token ? `&next_token=${encodeURIComponent(token)}` : ''}`);
      seen.push(...((await res.json()) as { ID: string }[]).map((j) => j.ID));
      expect(res.headers.get('X-Nomad-NextToken')).toBe(res.headers.get('X-Svc-NextToken'));
      token = res.headers.get('X-Nomad-NextToken') ?? '';
      if (!token) break;
    }
    expect(seen).toEqual(['page-a', 'page-b', 'page-c']);
  });

  it('refuses a request with no token, and accepts X-Nomad-Token alone', async () => {
    expect((await fetch(`${srv.url}/v1/jobs`)).status).toBe(403);
    expect((await nomad('GET', '/v1/jobs')).status).toBe(200);
  });
});
