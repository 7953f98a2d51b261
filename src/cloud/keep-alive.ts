/**
 * The provider calls' HTTP/1.1 client: each endpoint's connections stay open between calls and are
 * reused, newest first. Every ec2 login makes a DescribeInstances call, and node:http's client (its
 * Agent, ClientRequest and IncomingMessage streams) cost some 100 µs of the server's CPU per call where
 * writing the request and reading the answer off a kept socket costs a third of that. Only what the
 * query protocol needs: one request at a time per connection, answers framed by Content-Length, chunked
 * or by the connection's close. A kept connection the endpoint closed while it sat idle fails before any
 * byte of the answer arrives: the call is then sent once more on a new connection.
 */
import net from 'node:net';
import tls from 'node:tls';
import type { HttpAnswer, HttpCall } from './http.js';

/** Idle connections kept per endpoint: as many as calls to it run at once, usually. */
const MAX_IDLE_PER_ENDPOINT = 16;
/** Shorter than the idle timeout endpoints commonly apply (node:http's 5 s), so that a kept one is rarely stale. */
const IDLE_MS = 4_000;
/** An answer's status line and headers; node:http's own limit is 16 KiB. */
const MAX_HEAD_BYTES = 64 * 1024;

type Conn = net.Socket | tls.TLSSocket;

const idle = new Map<string, Conn[]>();
/** What ends an idle connection's stay: kept to be taken off again when the connection is reused. */
const idleWatch = new WeakMap<Conn, () => void>();
const IDLE_EVENTS = ['data', 'error', 'close', 'timeout'] as const;

const endpointKey = (url: URL) => `${url.protocol}//${url.host}`;

function connect(url: URL): Conn {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const secure = url.protocol === 'https:';
  const port = Number(url.port || (secure ? 443 : 80));
  const socket = secure ? tls.connect({ host, port, servername: net.isIP(host) ? undefined : host }) : net.connect({ host, port });
  socket.setNoDelay(true);
  return socket;
}

function release(key: string, socket: Conn): void {
  const list = idle.get(key) ?? [];
  if (list.length >= MAX_IDLE_PER_ENDPOINT) {
    socket.destroy();
    return;
  }
  // Data while idle answers no call of ours, and a connection that errs, closes or idles too long is done.
  const drop = () => {
    unwatch(socket);
    const at = list.indexOf(socket);
    if (at >= 0) list.splice(at, 1);
    if (list.length === 0 && idle.get(key) === list) idle.delete(key);
    socket.destroy();
  };
  for (const event of IDLE_EVENTS) socket.on(event, drop);
  idleWatch.set(socket, drop);
  socket.setTimeout(IDLE_MS);
  socket.unref();
  list.push(socket);
  idle.set(key, list);
}

function unwatch(socket: Conn): void {
  const drop = idleWatch.get(socket);
  if (!drop) return;
  for (const event of IDLE_EVENTS) socket.off(event, drop);
  idleWatch.delete(socket);
}

function take(key: string): Conn | undefined {
  const list = idle.get(key);
  const socket = list?.pop();
  if (!socket) return undefined;
  if (list!.length === 0) idle.delete(key);
  unwatch(socket);
  socket.setTimeout(0);
  socket.ref();
  return socket;
}

/** Headers with a line break or NUL in them would split the request: refused, as node:http refuses them. */
function requestHead(call: HttpCall, path: string, bodyLength: number): string {
  if (/[^\u0021-\u00ff]/.test(path)) throw Object.assign(new Error('the request path contains unescaped characters'), { code: 'ERR_UNESCAPED_CHARACTERS' });
  let head = `${call.method} ${path} HTTP/1.1\r\n`;
  let length = false;
  for (const [name, value] of Object.entries(call.headers)) {
    if (!/^[!#$%&'*+\-.^`|~\w]+$/.test(name) || /[\r\n\0]/.test(value)) {
      throw Object.assign(new Error(`invalid characters in the ${name} header`), { code: 'ERR_INVALID_CHAR' });
    }
    if (name.toLowerCase() === 'content-length') length = true;
    head += `${name}: ${value}\r\n`;
  }
  if (!length && bodyLength > 0) head += `Content-Length: ${bodyLength}\r\n`;
  return `${head}\r\n`;
}

class ProtocolError extends Error {
  readonly code = 'HPE_INVALID';
}

/** How the answer's body ends. */
type Framing = { kind: 'length'; left: number } | { kind: 'chunked' } | { kind: 'close' };

/** Reads one answer off a socket: feed it what arrives, it says when the answer is complete. */
class AnswerReader {
  status = 0;
  headers: Record<string, string> = {};
  /** whether the connection may carry another call once this answer is read */
  reusable = false;
  private head = true;
  private framing: Framing = { kind: 'close' };
  private pending: Buffer = Buffer.alloc(0);
  private readonly body: Buffer[] = [];
  private chunkLeft = -1;
  private trailers = false;
  /** any byte of an answer arrived */
  started = false;

  /** true once the answer is complete */
  feed(data: Buffer): boolean {
    this.started = true;
    this.pending = this.pending.length === 0 ? data : Buffer.concat([this.pending, data]);
    if (this.head && !this.readHead()) return false;
    return this.readBody();
  }

  /** The connection closed: complete when the body runs to the close. */
  ended(): boolean {
    if (this.head || this.framing.kind !== 'close') return false;
    this.body.push(this.pending);
    return true;
  }

  get bodyBytes(): Buffer {
    return Buffer.concat(this.body);
  }

  private readHead(): boolean {
    for (;;) {
      const end = this.pending.indexOf('\r\n\r\n');
      if (end < 0) {
        if (this.pending.length > MAX_HEAD_BYTES) throw new ProtocolError('the answer\'s headers are too large');
        return false;
      }
      const lines = this.pending.toString('latin1', 0, end).split('\r\n');
      this.pending = this.pending.subarray(end + 4);
      const status = /^HTTP\/1\.([01]) (\d{3})(?: |$)/.exec(lines[0]!);
      if (!status) throw new ProtocolError('the answer is not HTTP/1.x');
      const code = Number(status[2]);
      const headers: Record<string, string> = {};
      for (const line of lines.slice(1)) {
        const colon = line.indexOf(':');
        if (colon <= 0) throw new ProtocolError('a malformed header line in the answer');
        const name = line.slice(0, colon).trim().toLowerCase();
        const value = line.slice(colon + 1).trim();
        headers[name] = name in headers ? `${headers[name]}, ${value}` : value;
      }
      // 1xx answers are interim (100 Continue): the real one follows on the same connection.
      if (code >= 100 && code < 200) continue;
      this.status = code;
      this.headers = headers;
      this.head = false;
      const keepAlive = status[1] === '1' ? !/\bclose\b/i.test(headers.connection ?? '') : /\bkeep-alive\b/i.test(headers.connection ?? '');
      if (code === 204 || code === 304) this.framing = { kind: 'length', left: 0 };
      else if (/\bchunked\s*$/i.test(headers['transfer-encoding'] ?? '')) this.framing = { kind: 'chunked' };
      else if (headers['content-length'] !== undefined) {
        if (!/^\d+$/.test(headers['content-length'])) throw new ProtocolError('the answer\'s Content-Length is not a number');
        this.framing = { kind: 'length', left: Number(headers['content-length']) };
      }
      this.reusable = keepAlive && this.framing.kind !== 'close';
      return true;
    }
  }

  private readBody(): boolean {
    if (this.framing.kind === 'close') {
      this.body.push(this.pending);
      this.pending = Buffer.alloc(0);
      return false;
    }
    if (this.framing.kind === 'length') {
      const part = this.pending.subarray(0, this.framing.left);
      this.body.push(part);
      this.framing.left -= part.length;
      // Bytes past the answer would be an answer to no call: the connection is not kept.
      if (this.pending.length > part.length) this.reusable = false;
      this.pending = Buffer.alloc(0);
      return this.framing.left === 0;
    }
    return this.readChunks();
  }

  private readChunks(): boolean {
    for (;;) {
      if (this.trailers) {
        const end = this.pending.indexOf('\r\n');
        if (end < 0) return false;
        const line = this.pending.subarray(0, end);
        this.pending = this.pending.subarray(end + 2);
        if (line.length === 0) {
          if (this.pending.length > 0) this.reusable = false;
          return true;
        }
        continue;
      }
      if (this.chunkLeft < 0) {
        const end = this.pending.indexOf('\r\n');
        if (end < 0) {
          if (this.pending.length > MAX_HEAD_BYTES) throw new ProtocolError('a chunk size line is too long');
          return false;
        }
        const size = /^([0-9a-fA-F]+)[ \t]*(?:;.*)?$/.exec(this.pending.toString('latin1', 0, end));
        if (!size) throw new ProtocolError('a malformed chunk size in the answer');
        this.pending = this.pending.subarray(end + 2);
        this.chunkLeft = parseInt(size[1]!, 16);
        if (this.chunkLeft === 0) {
          this.trailers = true;
          continue;
        }
      }
      // The chunk's data and the line break after it.
      if (this.pending.length < this.chunkLeft + 2) {
        if (this.pending.length > this.chunkLeft) return false;
        this.body.push(this.pending);
        this.chunkLeft -= this.pending.length;
        this.pending = Buffer.alloc(0);
        return false;
      }
      if (this.pending[this.chunkLeft] !== 0x0d || this.pending[this.chunkLeft + 1] !== 0x0a) throw new ProtocolError('a chunk does not end with a line break');
      this.body.push(this.pending.subarray(0, this.chunkLeft));
      this.pending = this.pending.subarray(this.chunkLeft + 2);
      this.chunkLeft = -1;
    }
  }
}

/** One call and its answer on `socket`, which goes back to the idle ones when the answer leaves it reusable. */
function exchange(socket: Conn, key: string, call: HttpCall, head: string, body: Buffer | undefined): Promise<HttpAnswer> {
  return new Promise((resolve, reject) => {
    const reader = new AnswerReader();
    const done = (err: Error | undefined) => {
      socket.off('data', onData).off('error', onError).off('close', onClose).off('timeout', onTimeout);
      if (err) {
        socket.destroy();
        reject(Object.assign(err, { answerStarted: reader.started }));
        return;
      }
      socket.setTimeout(0);
      if (reader.reusable) release(key, socket);
      else socket.destroy();
      resolve({ status: reader.status, headers: reader.headers, body: reader.bodyBytes });
    };
    const onData = (data: Buffer) => {
      let complete: boolean;
      try {
        complete = reader.feed(data);
      } catch (err) {
        done(err as Error);
        return;
      }
      if (complete) done(undefined);
    };
    const onError = (err: Error) => done(err);
    const onClose = () => {
      if (reader.ended()) done(undefined);
      else done(Object.assign(new Error('the connection closed before the answer was complete'), { code: 'ECONNRESET' }));
    };
    const onTimeout = () => done(Object.assign(new Error(`no answer within ${call.timeoutMs} ms`), { code: 'RequestTimeout' }));
    socket.on('data', onData).on('error', onError).on('close', onClose).on('timeout', onTimeout);
    socket.setTimeout(call.timeoutMs);
    socket.write(body && body.length > 0 ? Buffer.concat([Buffer.from(head, 'latin1'), body]) : head);
  });
}

/**
 * The same exchange as httpCall, over a kept connection to the endpoint when one is idle. Rejects with
 * an Error whose `code` is the socket error code, `RequestTimeout` or `HPE_INVALID` (an answer that is
 * not HTTP/1.x).
 */
export async function keptHttpCall(call: HttpCall): Promise<HttpAnswer> {
  const body = call.body === undefined ? undefined : typeof call.body === 'string' ? Buffer.from(call.body, 'utf8') : call.body;
  const head = requestHead(call, `${call.url.pathname}${call.url.search}`, body?.length ?? 0);
  const key = endpointKey(call.url);
  const kept = take(key);
  if (kept) {
    try {
      return await exchange(kept, key, call, head, body);
    } catch (err) {
      const { answerStarted, code } = err as { answerStarted?: boolean; code?: string };
      if (answerStarted || code === 'RequestTimeout') throw err;
    }
  }
  return exchange(connect(call.url), key, call, head, body);
}

/** Closes the idle connections (a server shutting down, a test ending). */
export function closeIdleConnections(): void {
  for (const list of idle.values()) for (const socket of [...list]) socket.destroy();
  idle.clear();
}
