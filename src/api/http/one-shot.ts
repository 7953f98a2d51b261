/**
 * One HTTP/1.1 exchange over a plain TCP connection, for the calls that read the answer whole (most of
 * them): node:http does the same, but loading it and building its request and response objects adds
 * some 8 ms to a command's start, where node:net is loaded anyway. The request is written as node:http
 * writes it without an agent (`Connection: close`); the answer is read as RFC 9112 frames it, to its
 * Content-Length, its last chunk or the connection's close, and the connection is closed as soon as it
 * is complete.
 *
 * The errors are node:http's: a connection error or a hang-up before the answer's head rejects the
 * exchange (the caller words it), one after it ends the body stream with an error, as node:http's
 * response does.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { Socket } from 'node:net';
import type { Readable } from 'node:stream';

export type OneShotResponse = Readable & { statusCode: number; headers: IncomingHttpHeaders };

/** node:http's limit on the head of an answer (--max-http-header-size). */
const MAX_HEAD = 16 * 1024;
const MAX_CHUNK_LINE = 1024;
const STATUS_LINE_START = Buffer.from('HTTP/');

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const FIELD_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;

/** Header fields node:http keeps the first of when an answer repeats them; the others are joined with ", ". */
const SINGLE = new Set(['age', 'authorization', 'content-length', 'content-type', 'etag', 'expires', 'from', 'host', 'if-modified-since', 'if-unmodified-since', 'last-modified', 'location', 'max-forwards', 'proxy-authorization', 'referer', 'retry-after', 'server', 'user-agent']);

/** Methods node:http sends no Content-Length for when they carry no body. */
const BODILESS = new Set(['GET', 'HEAD', 'DELETE', 'OPTIONS', 'TRACE', 'CONNECT']);

/**
 * Whether these headers can be written as they are. node:http refuses a name or value with a character
 * a header cannot hold: such a request goes to node:http, so that it fails with node:http's error.
 */
export function sendableHeaders(headers: Record<string, string>): boolean {
  return Object.entries(headers).every(([name, value]) => TOKEN.test(name) && FIELD_VALUE.test(value));
}

/** node:http's errors, by name and code, so that the caller's wording of them holds for both. */
function hangUp(): NodeJS.ErrnoException {
  return Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
}
function aborted(): NodeJS.ErrnoException {
  return Object.assign(new Error('aborted'), { code: 'ECONNRESET' });
}
function parseError(reason: string, code: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`Parse Error: ${reason}`), { code });
}
function abortError(signal: AbortSignal): Error {
  return Object.assign(new Error('The operation was aborted'), { name: 'AbortError', code: 'ABORT_ERR', cause: signal.reason });
}

function requestHead(method: string, url: URL, headers: Record<string, string>, body: Buffer | undefined): string {
  const lines = [`${method} ${url.pathname}${url.search} HTTP/1.1`];
  const names = new Set(Object.keys(headers).map((n) => n.toLowerCase()));
  if (!names.has('host')) lines.push(`Host: ${url.host}`);
  for (const [name, value] of Object.entries(headers)) lines.push(`${name}: ${value}`);
  if (!names.has('content-length') && (body || !BODILESS.has(method))) lines.push(`Content-Length: ${body?.length ?? 0}`);
  lines.push('Connection: close', '', '');
  return lines.join('\r\n');
}

interface Head {
  status: number;
  headers: IncomingHttpHeaders;
}

function parseHead(text: string): Head {
  const lines = text.split('\r\n');
  const status = /^HTTP\/1\.[01] (\d{3})(?: .*)?$/.exec(lines[0]);
  if (!status) throw parseError('Expected HTTP/', 'HPE_INVALID_CONSTANT');
  const headers: IncomingHttpHeaders = {};
  for (const line of lines.slice(1)) {
    const colon = line.indexOf(':');
    const name = line.slice(0, colon).toLowerCase();
    if (colon <= 0 || !TOKEN.test(name)) throw parseError('Invalid header token', 'HPE_INVALID_HEADER_TOKEN');
    const value = line.slice(colon + 1).trim();
    const had = headers[name];
    if (name === 'set-cookie') headers[name] = [...((had as string[] | undefined) ?? []), value];
    else if (had === undefined) headers[name] = value;
    else if (!SINGLE.has(name)) headers[name] = `${had as string}, ${value}`;
  }
  return { status: Number(status[1]), headers };
}

/** How the answer's body ends, from its status and headers (RFC 9112, section 6.3). */
function framingOf(method: string, { status, headers }: Head): BodyReader {
  if (method === 'HEAD' || status === 204 || status === 304) return new LengthBody(0);
  if (/(?:^|,)\s*chunked\s*$/i.test(String(headers['transfer-encoding'] ?? ''))) return new ChunkedBody();
  if (headers['content-length'] !== undefined) {
    const length = String(headers['content-length']);
    if (!/^\d+$/.test(length)) throw parseError('Invalid character in Content-Length', 'HPE_INVALID_CONTENT_LENGTH');
    return new LengthBody(Number(length));
  }
  return new CloseBody();
}

/** A body as its bytes arrive: `feed` answers what of them is body, and `done` once it is all in. */
interface BodyReader {
  feed(data: Buffer): Buffer[];
  done: boolean;
  /** whether the connection's close is the body's end */
  endsAtClose: boolean;
}

class LengthBody implements BodyReader {
  readonly endsAtClose = false;
  constructor(private left: number) {}
  get done(): boolean {
    return this.left === 0;
  }
  feed(data: Buffer): Buffer[] {
    const part = data.subarray(0, this.left);
    this.left -= part.length;
    return part.length > 0 ? [part] : [];
  }
}

class CloseBody implements BodyReader {
  readonly endsAtClose = true;
  readonly done = false;
  feed(data: Buffer): Buffer[] {
    return [data];
  }
}

/** Transfer-Encoding: chunked, decoded as it arrives, chunk extensions and trailer fields skipped. */
class ChunkedBody implements BodyReader {
  readonly endsAtClose = false;
  private state: 'size' | 'data' | 'data-end' | 'trailer' | 'done' = 'size';
  private line = '';
  private left = 0;
  get done(): boolean {
    return this.state === 'done';
  }
  feed(data: Buffer): Buffer[] {
    const parts: Buffer[] = [];
    let at = 0;
    while (at < data.length && this.state !== 'done') {
      if (this.state === 'data') {
        const part = data.subarray(at, at + this.left);
        parts.push(part);
        at += part.length;
        this.left -= part.length;
        if (this.left === 0) this.state = 'data-end';
        continue;
      }
      const newline = data.indexOf(10, at);
      this.line += data.toString('latin1', at, newline === -1 ? data.length : newline);
      if (this.line.length > MAX_CHUNK_LINE) throw parseError('Chunk size line too long', 'HPE_INVALID_CHUNK_SIZE');
      if (newline === -1) break;
      at = newline + 1;
      const line = this.line.replace(/\r$/, '');
      this.line = '';
      if (this.state === 'size') {
        const size = /^([0-9a-fA-F]+)[\t ]*(?:;.*)?$/.exec(line);
        if (!size) throw parseError('Invalid character in chunk size', 'HPE_INVALID_CHUNK_SIZE');
        this.left = parseInt(size[1], 16);
        this.state = this.left === 0 ? 'trailer' : 'data';
      } else if (this.state === 'data-end') {
        if (line !== '') throw parseError('Expected LF after chunk data', 'HPE_STRICT');
        this.state = 'size';
      } else if (line === '') this.state = 'done';
    }
    return parts;
  }
}

/**
 * Sends the request and resolves with the answer once its head is in; the body follows on the stream
 * and ends when it is complete. `signal` aborts either.
 */
export async function oneShot(method: string, url: URL, headers: Record<string, string>, body: Buffer | undefined, signal?: AbortSignal): Promise<OneShotResponse> {
  if (signal?.aborted) throw abortError(signal);
  const [{ connect }, { Readable }] = await Promise.all([import('node:net'), import('node:stream')]);
  return new Promise((resolve, reject) => {
    // WHATWG URLs keep an IPv6 address's brackets in `hostname`; a socket takes it without them.
    const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
    const socket: Socket = connect({ host, port: Number(url.port || 80) });
    let head: Buffer[] = [];
    let headBytes = 0;
    let response: OneShotResponse | undefined;
    let reader: BodyReader | undefined;

    const onAbort = () => fail(abortError(signal!));
    signal?.addEventListener('abort', onAbort, { once: true });
    const finish = () => {
      signal?.removeEventListener('abort', onAbort);
      socket.destroy();
    };
    function fail(err: Error) {
      finish();
      if (response) response.destroy(err);
      else reject(err);
    }
    const deliver = (parts: Buffer[]) => {
      for (const part of parts) response!.push(part);
      if (reader!.done) {
        finish();
        response!.push(null);
      }
    };

    /** Reads heads until the final one (skipping 1xx answers), then hands the rest to the body. */
    const onHead = (data: Buffer) => {
      head.push(data);
      headBytes += data.length;
      const bytes = head.length === 1 ? head[0] : Buffer.concat(head);
      head = [bytes];
      // As node:http, an answer that does not start as one fails at once rather than at the connection's end.
      if (!STATUS_LINE_START.subarray(0, bytes.length).equals(bytes.subarray(0, STATUS_LINE_START.length))) throw parseError('Expected HTTP/', 'HPE_INVALID_CONSTANT');
      const end = bytes.indexOf('\r\n\r\n');
      if (end === -1) {
        if (headBytes > MAX_HEAD) fail(parseError('Header overflow', 'HPE_HEADER_OVERFLOW'));
        return;
      }
      const parsed = parseHead(bytes.toString('latin1', 0, end));
      const rest = bytes.subarray(end + 4);
      if (parsed.status < 200) {
        head = [];
        headBytes = 0;
        if (rest.length > 0) onHead(rest);
        return;
      }
      reader = framingOf(method, parsed);
      response = Object.assign(new Readable({ read() {}, destroy: (err, done) => (finish(), done(err)) }), { statusCode: parsed.status, headers: parsed.headers });
      resolve(response);
      deliver(reader.feed(rest));
    };

    socket.on('data', (data: Buffer) => {
      try {
        if (!reader) onHead(data);
        else if (!reader.done) deliver(reader.feed(data));
      } catch (err) {
        fail(err as Error);
      }
    });
    socket.on('end', () => {
      if (reader?.done) return;
      if (reader?.endsAtClose) {
        finish();
        response!.push(null);
      } else fail(reader ? aborted() : hangUp());
    });
    socket.on('error', fail);
    // Not end(): a server that reads the request's end as the client gone (node:http's) drops its answer.
    const start = Buffer.from(requestHead(method, url, headers, body), 'latin1');
    socket.write(body ? Buffer.concat([start, body]) : start);
  });
}
