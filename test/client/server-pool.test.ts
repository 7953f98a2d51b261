/**
 * A node's server list: a request goes to the current server, and a connection failure or a 5xx answer
 * moves it on to the next in turn, where it is tried again, and so does a request unanswered past its
 * deadline; a 4xx answer or a cancelled request does not.
 * The servers here are plain HTTP servers that answer what each case needs, and a port nobody listens on.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ServerPool } from '../../src/client/server-pool.js';
import { ApiError, ConnectionError } from '../../src/shared/errors.js';
import { createLogger, type LogEntry } from '../../src/shared/log.js';

interface Stand {
  url: string;
  /** the tokens of the requests it received, in order */
  tokens: string[];
  /** what it answers: a status, and for 200 a JSON body naming it */
  status: number;
  close(): Promise<void>;
}

async function stand(name: string, status: number): Promise<Stand> {
  const tokens: string[] = [];
  const s: Stand = { url: '', tokens, status, close: () => new Promise((resolve) => server.close(() => resolve())) };
  const server = http.createServer((req, res) => {
    tokens.push(String(req.headers['x-svc-token']));
    // A blocking query is left waiting: the test cancels it.
    if (req.url?.startsWith('/v1/wait')) return;
    res.writeHead(s.status, { 'content-type': 'application/json' });
    res.end(s.status === 200 ? JSON.stringify({ server: name }) : `${name} says ${s.status}`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  s.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return s;
}

/** An address where nothing listens: a port that was free a moment ago. */
async function closedPort(): Promise<string> {
  const s = await stand('gone', 200);
  await s.close();
  return s.url;
}

describe('ServerPool', () => {
  let failing: Stand;
  let a: Stand;
  let b: Stand;
  let dead: string;
  const logged: LogEntry[] = [];
  const log = createLogger('error', () => undefined);
  log.subscribe('warn', (e) => logged.push(e));

  beforeAll(async () => {
    [failing, a, b] = await Promise.all([stand('failing', 503), stand('a', 200), stand('b', 200)]);
    dead = await closedPort();
  });
  afterAll(async () => {
    await Promise.all([failing, a, b].map((s) => s?.close()));
  });

  it('moves past an unreachable server and a 5xx answer to the first that answers, and stays there', async () => {
    const pool = new ServerPool([dead, failing.url, a.url, b.url], undefined, log);
    expect(pool.address).toBe(dead);
    const first = await pool.scheduler<{ server: string }>('GET', '/v1/x', 'tok-1');
    expect(first.body).toEqual({ server: 'a' });
    expect(pool.address).toBe(a.url);
    expect(failing.tokens).toEqual(['tok-1']);
    const second = await pool.scheduler<{ server: string }>('PUT', '/v1/x', 'tok-2');
    expect(second.body).toEqual({ server: 'a' });
    expect(a.tokens).toEqual(['tok-1', 'tok-2']);
    expect(b.tokens).toEqual([]);
    expect(logged.map((e) => e.message)).toEqual([expect.stringContaining(`server ${dead} failed`), expect.stringContaining(`server ${failing.url} failed (503 failing says 503)`)]);
  });

  it('throws a 4xx answer at once: another server would say the same', async () => {
    const refusing = await stand('refusing', 403);
    try {
      const pool = new ServerPool([refusing.url, a.url], undefined, log);
      const before = a.tokens.length;
      const err = await pool.scheduler('GET', '/v1/x', 't').catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ApiError);
      expect((err as ApiError).statusCode).toBe(403);
      expect(a.tokens.length).toBe(before);
      expect(pool.address).toBe(refusing.url);
    } finally {
      await refusing.close();
    }
  });

  it('when no server answers, throws the last error and starts the next request where it left off (round robin)', async () => {
    const pool = new ServerPool([failing.url, dead], undefined, log);
    const err = await pool.scheduler('GET', '/v1/x', 't').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConnectionError);
    // It went failing → dead, and moved on from dead too: back to the first.
    expect(pool.address).toBe(failing.url);
    failing.status = 200;
    try {
      expect((await pool.scheduler<{ server: string }>('GET', '/v1/x', 't')).body).toEqual({ server: 'failing' });
    } finally {
      failing.status = 503;
    }
  });

  it('does not move on when the request was cancelled', async () => {
    const pool = new ServerPool([a.url, b.url], undefined, log);
    const abort = new AbortController();
    const pending = pool.scheduler('GET', '/v1/wait', 't', { signal: abort.signal }).catch((e: unknown) => e);
    await new Promise((r) => setTimeout(r, 50));
    abort.abort();
    expect(((await pending) as Error).name).toBe('AbortError');
    expect(pool.address).toBe(a.url);
  });

  it('moves on from a server that accepts the request and never answers, once its deadline passes', async () => {
    const pool = new ServerPool([a.url, b.url], undefined, log);
    const answer = await pool.scheduler<{ server: string }>('GET', '/v1/wait', 't', { deadlineMs: 200 }).catch((e: unknown) => e);
    // b leaves /v1/wait unanswered too: both were tried, each within its deadline.
    expect((answer as Error).name).toBe('AbortError');
    expect(a.tokens.at(-1)).toBe('t');
    expect(b.tokens.at(-1)).toBe('t');
    expect(pool.address).toBe(a.url);
    const next = await pool.scheduler<{ server: string }>('GET', '/v1/x', 't2');
    expect(next.body).toEqual({ server: 'a' });
  });
});
