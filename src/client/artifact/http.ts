/**
 * HTTP(S) downloads as go-getter makes them: GET with the artifact's headers, redirects followed (at most
 * 10, as Go's client), any status other than 2xx an error, and TLS verification skipped only when the
 * artifact says `insecure = true`.
 */
import { createWriteStream } from 'node:fs';
import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import { pipeline } from 'node:stream/promises';

const MAX_REDIRECTS = 10;
/** Nomad's default artifact `http_read_timeout`: how long the server may send nothing */
const READ_TIMEOUT_MS = 30 * 60 * 1000;
/** Headers that Go's client does not carry over to another host on a redirect. */
const SENSITIVE = ['authorization', 'www-authenticate', 'cookie', 'cookie2', 'proxy-authorization'];

export interface DownloadOptions {
  headers: Record<string, string>;
  insecure: boolean;
  signal?: AbortSignal;
  readTimeoutMs?: number;
}

function get(url: URL, headers: Record<string, string>, opts: DownloadOptions): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const mod = url.protocol === 'https:' ? https : http;
    const req = mod.get(url, { headers: { 'User-Agent': 'svc-artifact-getter', ...headers }, rejectUnauthorized: !opts.insecure, signal: opts.signal }, resolve);
    req.setTimeout(opts.readTimeoutMs ?? READ_TIMEOUT_MS, () => req.destroy(new Error(`no data from ${url.host} for ${Math.round((opts.readTimeoutMs ?? READ_TIMEOUT_MS) / 1000)}s`)));
    req.on('error', reject);
  });
}

/** Downloads `url` into the file `dest`; resolves to the final URL (after redirects). */
export async function download(url: URL, dest: string, opts: DownloadOptions): Promise<URL> {
  let current = url;
  let headers = { ...opts.headers };
  for (let hops = 0; ; hops++) {
    const res = await get(current, headers, opts);
    const status = res.statusCode ?? 0;
    if ([301, 302, 303, 307, 308].includes(status) && res.headers.location) {
      res.resume();
      if (hops >= MAX_REDIRECTS) throw new Error(`stopped after ${MAX_REDIRECTS} redirects`);
      const next = new URL(res.headers.location, current);
      if (next.protocol !== 'http:' && next.protocol !== 'https:') throw new Error(`redirected to an unsupported URL ${next.protocol}//…`);
      if (next.host !== current.host) headers = Object.fromEntries(Object.entries(headers).filter(([k]) => !SENSITIVE.includes(k.toLowerCase())));
      current = next;
      continue;
    }
    if (status < 200 || status > 299) {
      res.resume();
      throw new Error(`bad response code: ${status}`);
    }
    await pipeline(res, createWriteStream(dest, { mode: 0o644 }), { signal: opts.signal });
    return current;
  }
}
