/**
 * The API client's plain HTTP exchange (src/api/http/one-shot.ts), which `request()` uses instead of
 * node:http: against a TCP server started here that records each request as it arrived and answers
 * with exactly the bytes a case gives, a byte a write where the framing is the subject. Where node:http
 * can read the same answer (`open()`, which still uses it), both must read it alike.
 */
import net from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ApiClient } from '../../../src/api/http/client.js';
import { ConnectionError } from '../../../src/shared/errors.js';

interface Received {
  /** the request's head and body, as sent */
  raw: string;
  /** whether the client had ended its side before the answer was written */
  endedBeforeAnswer: boolean;
  /** resolves once the client's connection is gone */
  closed: Promise<void>;
}

type Answer = (socket: net.Socket) => Promise<void>;

let server: net.Server;
let address: string;
let answer: Answer;
let received: Received[];
const sockets = new Set<net.Socket>();

/** Whether `data` holds a whole request: its head, and as many body bytes as its Content-Length says. */
function complete(data: string): boolean {
  const end = data.indexOf('\r\n\r\n');
  if (end === -1) return false;
  const length = /\r\ncontent-length: (\d+)/i.exec(data.slice(0, end))?.[1];
  return data.length - end - 4 >= Number(length ?? 0);
}

const pause = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Writes `text` a byte at a time, each write given its own turn, so the client reads it in pieces. */
async function trickle(socket: net.Socket, text: string): Promise<void> {
  for (const byte of Buffer.from(text, 'latin1')) {
    socket.write(Buffer.of(byte));
    await pause();
  }
}

beforeAll(async () => {
  server = net.createServer((socket) => {
    sockets.add(socket);
    let raw = '';
    let ended = false;
    let answered = false;
    const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
    socket.on('error', () => undefined);
    socket.on('end', () => (ended = true));
    socket.on('data', (d: Buffer) => {
      raw += d.toString('latin1');
      if (answered || !complete(raw)) return;
      answered = true;
      received.push({ raw, endedBeforeAnswer: ended, closed });
      void answer(socket);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  address = `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`;
});

beforeEach(() => {
  received = [];
});

afterAll(async () => {
  for (const s of sockets) s.destroy();
  await new Promise((resolve) => server.close(resolve));
});

const client = (token?: string) => new ApiClient({ address, token });

/** The answer as node:http reads it, through `open()`. */
async function throughNodeHttp(method: string, path: string) {
  const res = await client().open(method, path);
  const chunks: Buffer[] = [];
  for await (const c of res) chunks.push(c as Buffer);
  return { status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks) };
}

describe('the request it sends', () => {
  it('is what node:http sends without an agent: Host, the headers, Connection: close, a Content-Length for a body or a method that takes one', async () => {
    answer = async (socket) => void socket.end('HTTP/1.1 204 No Content\r\n\r\n');
    await client('tok').request('GET', '/v1/sys/health', { query: { a: 'b c' } });
    await client('tok').request('POST', '/v1/sys/policy/p', { body: { policy: 'é' } });
    await client().request('PUT', '/v1/sys/seal');
    const port = new URL(address).port;
    expect(received.map((r) => r.raw)).toEqual([
      `GET /v1/sys/health?a=b+c HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nx-svc-token: tok\r\nConnection: close\r\n\r\n`,
      `POST /v1/sys/policy/p HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nx-svc-token: tok\r\ncontent-type: application/json\r\ncontent-length: 15\r\nConnection: close\r\n\r\n{"policy":"\u00c3\u00a9"}`,
      `PUT /v1/sys/seal HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`,
    ]);
  });

  it('keeps its side of the connection open until the answer came (a server may read an end as the client gone)', async () => {
    answer = async (socket) => {
      await pause();
      socket.end('HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nok');
    };
    expect((await client().request('GET', '/x')).body.toString()).toBe('ok');
    expect(received[0].endedBeforeAnswer).toBe(false);
  });

  it('leaves a header node:http refuses to node:http, which fails with its own error', async () => {
    answer = async (socket) => void socket.end('HTTP/1.1 204 No Content\r\n\r\n');
    const err = await client('a\nb').request('GET', '/x').then(() => undefined, (e: NodeJS.ErrnoException) => e);
    expect(err?.code).toBe('ERR_INVALID_CHAR');
    expect(received).toEqual([]);
  });
});

describe('the answer it reads', () => {
  it('by Content-Length, without waiting for the connection to close; repeated headers as node:http joins them', async () => {
    const text =
      'HTTP/1.1 200 OK\r\nContent-Type: application/json\r\ncontent-type: text/plain\r\nSet-Cookie: a=1\r\nset-cookie: b=2\r\n' +
      'X-Svc-Index: 7\r\nVary: a\r\nvary: b\r\nContent-Length: 11\r\n\r\n{"ok":true}';
    answer = async (socket) => trickle(socket, text);
    const whole = await client().request('GET', '/x');
    expect(whole.status).toBe(200);
    expect(whole.body.toString()).toBe('{"ok":true}');
    expect(whole.headers).toEqual({ 'content-type': 'application/json', 'set-cookie': ['a=1', 'b=2'], 'x-svc-index': '7', vary: 'a, b', 'content-length': '11' });
    answer = async (socket) => void socket.write(text);
    const viaNode = await throughNodeHttp('GET', '/x');
    expect({ status: whole.status, headers: whole.headers, body: whole.body }).toEqual(viaNode);
  });

  it('chunked, with chunk extensions and trailer fields, a byte at a time', async () => {
    const text = 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5;name=value\r\nhello\r\n1\r\n \r\nA\r\n0123456789\r\n0\r\nX-Trailer: t\r\n\r\n';
    answer = async (socket) => trickle(socket, text);
    const whole = await client().request('GET', '/x');
    expect(whole.body.toString()).toBe('hello 0123456789');
    answer = async (socket) => void socket.write(text);
    expect((await throughNodeHttp('GET', '/x')).body.toString()).toBe('hello 0123456789');
  });

  it('to the connection\'s close when the answer gives no length', async () => {
    answer = async (socket) => {
      await trickle(socket, 'HTTP/1.1 200 OK\r\n\r\nuntil the end');
      socket.end();
    };
    expect((await client().request('GET', '/x')).body.toString()).toBe('until the end');
  });

  it('after the 1xx answers before it', async () => {
    answer = async (socket) => trickle(socket, 'HTTP/1.1 103 Early Hints\r\nLink: </a>\r\n\r\nHTTP/1.1 201 Created\r\ncontent-length: 1\r\n\r\nx');
    const whole = await client().request('POST', '/x');
    expect({ status: whole.status, body: whole.body.toString(), link: whole.headers.link }).toEqual({ status: 201, body: 'x', link: undefined });
  });

  it('with no body for 204 and for HEAD, whatever the headers say', async () => {
    answer = async (socket) => void socket.write('HTTP/1.1 204 No Content\r\ncontent-length: 5\r\n\r\n');
    expect((await client().request('DELETE', '/x')).status).toBe(204);
    answer = async (socket) => void socket.write('HTTP/1.1 200 OK\r\ncontent-length: 5\r\n\r\n');
    expect((await client().request('HEAD', '/x')).body.length).toBe(0);
  });

  it('closes the connection once the answer is complete', async () => {
    answer = async (socket) => void socket.write('HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nok');
    await client().request('GET', '/x');
    await received[0].closed;
  });
});

describe('failures', () => {
  it('a connection closed before any answer: the hint that the server may speak TLS', async () => {
    answer = async (socket) => void socket.end();
    const err = await client().scheduler('GET', '/v1/nodes').then(() => undefined, (e: Error) => e);
    expect(err).toBeInstanceOf(ConnectionError);
    expect(err?.message).toBe(`cannot reach the server at ${address}: the server closed the connection without answering; if it serves TLS, the address must start with https://`);
  });

  it('an answer that is not HTTP: node:http\'s parse error, at once', async () => {
    answer = async (socket) => void socket.write('SSH-2.0-OpenSSH_9.6\r\n');
    const err = await client().scheduler('GET', '/v1/nodes').then(() => undefined, (e: Error) => e);
    expect(err?.message).toBe(`cannot reach the server at ${address}: Parse Error: Expected HTTP/`);
  });

  it('a body cut short: node:http\'s "aborted", not a connection error', async () => {
    answer = async (socket) => void socket.end('HTTP/1.1 200 OK\r\ncontent-length: 10\r\n\r\nabc');
    const err = await client().request('GET', '/x').then(() => undefined, (e: NodeJS.ErrnoException) => e);
    expect(err).not.toBeInstanceOf(ConnectionError);
    expect({ message: err?.message, code: err?.code }).toEqual({ message: 'aborted', code: 'ECONNRESET' });
  });

  it('a refused connection: the CLI\'s hint to start the server', async () => {
    const closed = net.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as net.AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const err = await new ApiClient({ address: `http://127.0.0.1:${port}` }).request('GET', '/x').then(() => undefined, (e: Error) => e);
    expect(err?.message).toBe(`cannot reach the server at http://127.0.0.1:${port} (connection refused); is \`svc server\` running? Set SVC_ADDR or -address to point elsewhere`);
  });

  it('an aborted signal: an AbortError, and the connection closed', async () => {
    const controller = new AbortController();
    answer = async () => controller.abort();
    const err = await client().request('GET', '/x', { signal: controller.signal }).then(() => undefined, (e: Error) => e);
    expect(err?.name).toBe('AbortError');
    await received[0].closed;
    const already = await client().request('GET', '/x', { signal: controller.signal }).then(() => undefined, (e: Error) => e);
    expect(already?.name).toBe('AbortError');
    expect(received).toHaveLength(1);
  });
});
