/** The provider calls' keep-alive client against real sockets: reuse, the three ways an answer ends, stale connections, refusals. */
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { closeIdleConnections, keptHttpCall } from '../../src/cloud/keep-alive.js';

interface Served {
  url: string;
  /** connections accepted so far */
  connections: number;
  /** request heads received, in order, each with the number of its connection */
  requests: { connection: number; head: string; body: string }[];
  close(): Promise<void>;
}

/**
 * A loopback server speaking raw bytes: `answer(request, n)` returns what to write for the n-th request
 * on a connection (1-based), or 'destroy' to drop the connection unanswered, or 'hang' to never answer.
 */
async function serve(answer: (request: { head: string; body: string }, n: number) => string | 'destroy' | 'hang' | { write: string; end: true }): Promise<Served> {
  const sockets = new Set<net.Socket>();
  const served: Served = { url: '', connections: 0, requests: [], close: async () => undefined };
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    const connection = ++served.connections;
    let n = 0;
    let pending = '';
    socket.on('data', (data) => {
      pending += data.toString('latin1');
      for (;;) {
        const end = pending.indexOf('\r\n\r\n');
        if (end < 0) return;
        const head = pending.slice(0, end);
        const length = Number(/\r\ncontent-length: *(\d+)/i.exec(head)?.[1] ?? 0);
        if (pending.length < end + 4 + length) return;
        const body = pending.slice(end + 4, end + 4 + length);
        pending = pending.slice(end + 4 + length);
        served.requests.push({ connection, head, body });
        const reply = answer({ head, body }, ++n);
        if (reply === 'destroy') return void socket.destroy();
        if (reply === 'hang') return;
        if (typeof reply === 'string') socket.write(reply);
        else socket.end(reply.write);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  served.url = `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`;
  served.close = () =>
    new Promise<void>((resolve) => {
      for (const s of sockets) s.destroy();
      server.close(() => resolve());
    });
  return served;
}

const ok = (body: string, extra = '') => `HTTP/1.1 200 OK\r\nContent-Type: text/xml\r\nContent-Length: ${Buffer.byteLength(body)}\r\n${extra}\r\n${body}`;

const post = (url: string, body = 'Action=DescribeInstances', headers: Record<string, string> = {}) =>
  keptHttpCall({ url: new URL('/', url), method: 'POST', headers: { Host: 'ec2.us-east-1.amazonaws.com', ...headers }, body, timeoutMs: 5_000 });

let servers: Served[] = [];
const started = async (...args: Parameters<typeof serve>) => {
  const s = await serve(...args);
  servers.push(s);
  return s;
};

afterEach(async () => {
  closeIdleConnections();
  await Promise.all(servers.map((s) => s.close()));
  servers = [];
});

describe('keptHttpCall', () => {
  it('sends the request as given and reuses one connection for calls one after another', async () => {
    const s = await started((req) => ok(`<r>${req.body}</r>`));
    for (const n of [1, 2, 3]) {
      const answer = await post(s.url, `Action=Call${n}`);
      expect(answer.status).toBe(200);
      expect(answer.headers['content-type']).toBe('text/xml');
      expect(answer.body.toString()).toBe(`<r>Action=Call${n}</r>`);
    }
    expect(s.connections).toBe(1);
    expect(s.requests[0]!.head.split('\r\n')).toEqual(['POST / HTTP/1.1', 'Host: ec2.us-east-1.amazonaws.com', 'Content-Length: 12']);
  });

  it('calls at once each get a connection, all kept for the calls after them', async () => {
    const s = await started((req) => ok(req.body));
    const first = await Promise.all([1, 2, 3].map((n) => post(s.url, `n=${n}`)));
    expect(first.map((a) => a.body.toString())).toEqual(['n=1', 'n=2', 'n=3']);
    await Promise.all([4, 5, 6].map((n) => post(s.url, `n=${n}`)));
    expect(s.connections).toBe(3);
  });

  it('reassembles a chunked answer, skips an interim 100 Continue, and keeps the connection', async () => {
    const s = await started(
      () =>
        'HTTP/1.1 100 Continue\r\n\r\n' +
        'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nX-Amzn-RequestId: r-1\r\n\r\n' +
        '5;ext=1\r\n<a>hi\r\n6\r\n</a>!!\r\n0\r\nX-Trailer: t\r\n\r\n',
    );
    const answer = await post(s.url);
    expect(answer.body.toString()).toBe('<a>hi</a>!!');
    expect(answer.headers['x-amzn-requestid']).toBe('r-1');
    await post(s.url);
    expect(s.connections).toBe(1);
  });

  it('an answer without a length runs to the close, and the next call opens a new connection', async () => {
    const s = await started(() => ({ write: 'HTTP/1.1 200 OK\r\nContent-Type: text/xml\r\n\r\n<whole/>', end: true }));
    expect((await post(s.url)).body.toString()).toBe('<whole/>');
    expect((await post(s.url)).body.toString()).toBe('<whole/>');
    expect(s.connections).toBe(2);
  });

  it('Connection: close is honoured', async () => {
    const s = await started(() => ok('<x/>', 'Connection: close\r\n'));
    await post(s.url);
    await post(s.url);
    expect(s.connections).toBe(2);
  });

  it('a kept connection dropped unanswered is retried once on a new one', async () => {
    // Every connection answers its first request and drops its second, as an endpoint closing an idle
    // connection just as the call arrives does.
    const s = await started((req, n) => (n === 1 ? ok(req.body) : 'destroy'));
    await post(s.url, 'first');
    const answer = await post(s.url, 'second');
    expect(answer.body.toString()).toBe('second');
    expect(s.requests.map((r) => [r.connection, r.body])).toEqual([
      [1, 'first'],
      [1, 'second'],
      [2, 'second'],
    ]);
  });

  it('a new connection dropped unanswered fails with the socket error, sent once', async () => {
    const s = await started(() => 'destroy');
    await expect(post(s.url)).rejects.toMatchObject({ code: 'ECONNRESET' });
    expect(s.requests).toHaveLength(1);
  });

  it('an endpoint that does not answer in time is a RequestTimeout, not retried', async () => {
    const s = await started(() => 'hang');
    const call = keptHttpCall({ url: new URL('/', s.url), method: 'POST', headers: {}, body: 'x', timeoutMs: 200 });
    await expect(call).rejects.toMatchObject({ code: 'RequestTimeout' });
    expect(s.requests).toHaveLength(1);
  });

  it('an answer that is not HTTP fails as HPE_INVALID', async () => {
    const s = await started(() => 'SSH-2.0-OpenSSH\r\n\r\n');
    await expect(post(s.url)).rejects.toMatchObject({ code: 'HPE_INVALID' });
  });

  it('a header value with a line break is refused before anything is sent', async () => {
    const s = await started(() => ok('<x/>'));
    await expect(post(s.url, 'x', { 'X-Amz-Security-Token': 'abc\r\nX-Injected: 1' })).rejects.toMatchObject({ code: 'ERR_INVALID_CHAR' });
    expect(s.connections).toBe(0);
  });

  it('an unreachable endpoint fails with the connect error', async () => {
    const s = await started(() => ok('<x/>'));
    const { url } = s;
    await s.close();
    await expect(post(url)).rejects.toMatchObject({ code: 'ECONNREFUSED' });
  });
});
