/**
 * Requests through an HTTP proxy, as curl makes them: https_proxy or HTTPS_PROXY for https:// addresses,
 * http_proxy or HTTP_PROXY for http:// ones (lower case first), unless no_proxy/NO_PROXY leaves the host
 * out. Only NO_PROXY exempts a host: loopback addresses are proxied like any other unless it names
 * them, as curl does. src/api/http/client.ts loads this module only when a proxy variable is set, and
 * undici's ProxyAgent is loaded only for a request that goes through the proxy: CONNECT for https, the
 * absolute URL for http.
 */
import { BlockList, isIP } from 'node:net';
import type { Readable } from 'node:stream';
import type { RequestOptions } from 'node:https';
import type { IncomingHttpHeaders } from 'node:http';
import type { ProxyAgent } from 'undici';
import { ConnectionError } from '../../shared/errors.js';
import { connectionError, type ClientTls } from './tls.js';

/** One NO_PROXY entry: `*`, a host name (itself and its subdomains; a leading `.` or `*.` changes nothing), an IP address or CIDR range, each optionally `:port`. */
function entryMatches(entry: string, host: string, port: string): boolean {
  if (entry === '*') return true;
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(entry);
  const colon = entry.indexOf(':');
  // A bare IPv6 address has several colons; one colon separates a port.
  const [name, wantPort] = bracketed ? [bracketed[1], bracketed[2]] : colon !== -1 && colon === entry.lastIndexOf(':') ? [entry.slice(0, colon), entry.slice(colon + 1)] : [entry, undefined];
  if (wantPort !== undefined && wantPort !== port) return false;
  const slash = name.indexOf('/');
  if (slash !== -1) {
    const [network, bits] = [name.slice(0, slash), Number(name.slice(slash + 1))];
    const family = isIP(network);
    if (!family || isIP(host) !== family || !Number.isInteger(bits)) return false;
    const range = new BlockList();
    range.addSubnet(network, bits, family === 4 ? 'ipv4' : 'ipv6');
    return range.check(host, family === 4 ? 'ipv4' : 'ipv6');
  }
  if (isIP(name)) return name === host;
  const domain = name.replace(/^\*?\./, '');
  return domain !== '' && (host === domain || host.endsWith(`.${domain}`));
}

/** Whether no_proxy/NO_PROXY (comma or space separated, case-insensitive) leaves this URL's host out. */
export function noProxy(url: URL, env: Readonly<Record<string, string | undefined>>): boolean {
  const list = (env.no_proxy || env.NO_PROXY || '').toLowerCase();
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  return list.split(/[\s,]+/).some((entry) => entry !== '' && entryMatches(entry, host, port));
}

/** The proxy for the URL, as a URL (curl reads a bare `host:port` as an http:// proxy); undefined for none. */
export function proxyFor(url: URL, env: Readonly<Record<string, string | undefined>>): string | undefined {
  const proxy = url.protocol === 'https:' ? env.https_proxy || env.HTTPS_PROXY : env.http_proxy || env.HTTP_PROXY;
  if (!proxy || noProxy(url, env)) return undefined;
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(proxy) ? proxy : `http://${proxy}`;
}

export interface ProxiedRequest {
  method: string;
  headers: Record<string, string>;
  body?: Buffer;
  signal?: AbortSignal;
}

/**
 * Sends the request through the proxy the environment names for it, and answers once the headers arrive
 * with the body as a Readable carrying `statusCode` and `headers`, as node:http's response does;
 * undefined when no proxy applies (the caller goes direct).
 */
export async function openIfProxied(
  config: { address: string; tls?: ClientTls; proxyEnv?: Readonly<Record<string, string | undefined>> },
  url: URL,
  req: ProxiedRequest,
  tls: RequestOptions,
): Promise<(Readable & { statusCode: number; headers: IncomingHttpHeaders }) | undefined> {
  const uri = config.proxyEnv && proxyFor(url, config.proxyEnv);
  if (!uri) return undefined;
  const undici = await import('undici');
  const dispatcher = new undici.ProxyAgent({ uri, requestTls: tls as ProxyAgent.Options['requestTls'], proxyTunnel: false });
  try {
    const res = await undici.request(url, { method: req.method as 'GET', headers: req.headers, body: req.body, signal: req.signal, dispatcher });
    return Object.assign(res.body, { statusCode: res.statusCode, headers: res.headers as IncomingHttpHeaders });
  } catch (err) {
    // undici names a refused tunnel an AbortError too: only the caller's signal makes it one.
    if (req.signal?.aborted) throw err;
    const refused = /^Proxy response \((\d+)\)/.exec((err as Error).message);
    if (refused) throw new ConnectionError(`cannot reach the server at ${config.address}: the proxy ${new URL(uri).host} refused the tunnel (${refused[1]})`);
    throw connectionError(err as NodeJS.ErrnoException, url, config, new URL(uri).host);
  } finally {
    // The agent serves this one request: closing it lets the answer finish, then ends the connection.
    dispatcher.close().catch(() => undefined);
  }
}
