/** Reading a request's headers and writing an answer, as both the API and the metadata service do. */
import type { IncomingMessage, ServerResponse } from 'node:http';

/** Lower-cased header name -> its raw values in arrival order (what the signature covers). */
export function headerMap(req: IncomingMessage): Map<string, string[]> {
  const m = new Map<string, string[]>();
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    const n = req.rawHeaders[i].toLowerCase();
    const list = m.get(n) ?? [];
    list.push(req.rawHeaders[i + 1]);
    m.set(n, list);
  }
  return m;
}

export function send(res: ServerResponse, status: number, body: string, contentType: string, extra: Record<string, string> = {}): void {
  res.writeHead(status, { 'Content-Type': contentType, 'Content-Length': Buffer.byteLength(body), ...extra });
  res.end(body);
}
