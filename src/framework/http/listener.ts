/**
 * The node:http side of the server: body collection with a size limit, the request ID header, and the
 * `LIST` method. Node's HTTP parser rejects method names it does not know before any handler runs, so a
 * `LIST` request arrives as a client error carrying the raw bytes; we parse that one request ourselves,
 * answer it through the same handler, and close the connection (the parser cannot resume after it).
 */
import http from 'node:http';
import https from 'node:https';
import type { Socket } from 'node:net';
import type { TLSSocket } from 'node:tls';
import type { RawRequest, RawResponse, ResponseStream } from './types.js';

/** Answers each request with a response of its own: the listener completes its headers (the length) in place. */
export type RequestHandler = (raw: RawRequest) => Promise<RawResponse>;

interface ParserError extends Error {
  code?: string;
  rawPacket?: Buffer;
}

const STATUS_TEXT = http.STATUS_CODES;

function splitUrl(url: string): { path: string; query: URLSearchParams } {
  const q = url.indexOf('?');
  return q === -1 ? { path: url, query: new URLSearchParams() } : { path: url.slice(0, q), query: new URLSearchParams(url.slice(q + 1)) };
}

function serialise(res: RawResponse, extra: Record<string, string>): Buffer {
  const body = typeof res.body === 'string' ? Buffer.from(res.body) : res.body;
  const headers = { ...res.headers, ...extra, 'content-length': String(body.length) };
  const head = [`HTTP/1.1 ${res.status} ${STATUS_TEXT[res.status] ?? ''}`, ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`)];
  return Buffer.concat([Buffer.from(`${head.join('\r\n')}\r\n\r\n`), body]);
}

/**
 * Sends a streamed body: headers first (chunked, no length), then whatever the stream writes. A write
 * waits for 'drain' when the socket's buffer is full, so a slow client slows the producer instead of
 * filling memory; once the client is gone, writes are dropped and the stream's signal is aborted.
 */
async function sendStream(res: http.ServerResponse, status: number, headers: Record<string, string>, stream: ResponseStream): Promise<void> {
  const gone = new AbortController();
  // 'close' before end() means the connection went away; after end() it changes nothing.
  res.once('close', () => gone.abort());
  if (res.destroyed || res.socket?.destroyed !== false) gone.abort(); // gone before the answer was ready
  res.writeHead(status, headers);
  res.flushHeaders();
  const write = async (chunk: Buffer | string): Promise<void> => {
    if (gone.signal.aborted || res.destroyed) return;
    if (res.write(chunk)) return;
    await new Promise<void>((resolve) => {
      const done = () => {
        res.off('drain', done);
        gone.signal.removeEventListener('abort', done);
        resolve();
      };
      res.on('drain', done);
      gone.signal.addEventListener('abort', done);
      if (gone.signal.aborted) done();
    });
  };
  try {
    await stream(write, gone.signal);
    if (!res.destroyed) res.end();
  } catch {
    // The producer already logged what failed; cutting the connection tells the client the body is incomplete.
    res.destroy();
  }
}

/** Whether the connection presented a client certificate that verified against the server's client CAs. */
export function clientCertVerified(socket: Socket): boolean {
  return (socket as TLSSocket).authorized === true;
}

/** Parses one raw request (request line, headers, body) from the bytes the parser gave up on. */
export function parseRawRequest(packet: Buffer, remoteAddress: string, certVerified = false): RawRequest | undefined {
  const end = packet.indexOf('\r\n\r\n');
  if (end === -1) return undefined;
  const lines = packet.subarray(0, end).toString('latin1').split('\r\n');
  const m = /^([A-Z]+) (\S+) HTTP\/1\.[01]$/.exec(lines[0]);
  if (!m) return undefined;
  const headers: Record<string, string> = {};
  for (const line of lines.slice(1)) {
    const i = line.indexOf(':');
    if (i > 0) headers[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim();
  }
  const length = Number(headers['content-length'] ?? 0);
  const body = packet.subarray(end + 4, end + 4 + length);
  if (body.length !== length) return undefined;
  const { path, query } = splitUrl(m[2]);
  return { method: m[1], path, query, headers, body, remoteAddress, clientCertVerified: certVerified };
}

/**
 * An answer's headers with its length, added to the answer's own: Node sends a body it is handed after
 * writeHead as chunks unless told its length, which costs a chunk header and trailer per answer and hides
 * the size from the client. Not for a HEAD (the length is the GET's, unknown here) nor for an answer that
 * may have no body.
 */
function sized(method: string, answer: RawResponse): Record<string, string> {
  if (method === 'HEAD' || answer.status === 204 || answer.status === 304 || answer.status < 200 || 'content-length' in answer.headers) return answer.headers;
  answer.headers['content-length'] = String(Buffer.byteLength(answer.body));
  return answer.headers;
}

/** With `tls`, an HTTPS server (node:https takes the same handler and has the same events). */
export function createHttpServer(handle: RequestHandler, opts: { maxRequestBytes: number; tooLarge: (path: string) => RawResponse; tls?: https.ServerOptions }): http.Server {
  const onRequest = (req: http.IncomingMessage, res: http.ServerResponse) => {
    const { path, query } = splitUrl(req.url ?? '/');
    const chunks: Buffer[] = [];
    let size = 0;
    let refused = false;
    const declared = Number(req.headers['content-length'] ?? 0);
    const refuse = () => {
      refused = true;
      const answer = opts.tooLarge(path);
      res.writeHead(answer.status, { ...answer.headers, connection: 'close' });
      res.end(answer.body);
      req.resume();
    };
    if (declared > opts.maxRequestBytes) return refuse();
    req.on('data', (chunk: Buffer) => {
      if (refused) return;
      size += chunk.length;
      if (size > opts.maxRequestBytes) return refuse();
      chunks.push(chunk);
    });
    req.on('end', () => {
      if (refused) return;
      const raw: RawRequest = {
        method: req.method ?? 'GET',
        path,
        query,
        headers: req.headers,
        body: Buffer.concat(chunks),
        remoteAddress: req.socket.remoteAddress ?? '',
        clientCertVerified: clientCertVerified(req.socket),
      };
      handle(raw).then(
        (answer) => {
          if (answer.stream) return sendStream(res, answer.status, answer.headers, answer.stream);
          res.writeHead(answer.status, sized(raw.method, answer));
          res.end(answer.body);
        },
        (err: unknown) => {
          res.writeHead(500, { 'content-type': 'text/plain' });
          res.end(String((err as Error)?.message ?? err));
        },
      );
    });
  };
  const server: http.Server = opts.tls ? https.createServer({ ...opts.tls, keepAliveTimeout: 65_000 }, onRequest) : http.createServer({ keepAliveTimeout: 65_000 }, onRequest);

  server.on('clientError', (err: ParserError, socket: Socket) => {
    const packet = err.rawPacket;
    if (err.code === 'HPE_INVALID_METHOD' && packet && packet.subarray(0, 5).toString('latin1') === 'LIST ') {
      const raw = parseRawRequest(packet, socket.remoteAddress ?? '', clientCertVerified(socket));
      if (raw) {
        handle(raw).then(
          (answer) => socket.end(serialise(answer, { connection: 'close' })),
          () => socket.destroy(),
        );
        return;
      }
    }
    if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nconnection: close\r\ncontent-length: 0\r\n\r\n');
    else socket.destroy();
  });
  return server;
}
