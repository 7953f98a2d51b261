/**
 * The web UI's files, served by the server itself at /ui: what the build put in dist/ui (index.html and
 * assets/ named by their content's hash), read once into memory and nothing fetched from elsewhere.
 * Every path under /ui/ that is not an asset answers index.html, so the browser app's own addresses
 * (/ui/jobs/example) survive a reload; `/` sends the browser to /ui/.
 *
 * The UI holds a token in the page, so its answers carry a policy that lets the page run only the
 * scripts it was built with (none inline, no eval), talk only to this server, and never be framed.
 */
import { readdir, readFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import type { RawRequest, RawResponse } from '../../framework/http/types.js';

interface Asset {
  body: Buffer;
  gzipped?: Buffer;
  type: string;
}

interface Built {
  index: Buffer;
  assets: Map<string, Asset>;
}

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
  '.map': 'application/json',
};

/** Text assets smaller than this go out as they are: gzip would save less than its header costs. */
const GZIP_FROM_BYTES = 1024;

const ASSET_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/** A Host header safe to repeat in the policy: a name or address, and a port. */
const HOST = /^(?:[A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

/**
 * dist/ui sits next to the server's bundle (dist/server.cjs); a server built from the sources (tests in
 * process) serves the one the last build made.
 */
function defaultDir(): string {
  const beside = path.join(__dirname, 'ui');
  return existsSync(beside) ? beside : path.resolve(__dirname, '../../../dist/ui');
}

async function load(dir: string): Promise<Built> {
  const index = await readFile(path.join(dir, 'index.html'));
  const assets = new Map<string, Asset>();
  for (const name of await readdir(path.join(dir, 'assets'))) {
    const type = TYPES[path.extname(name)];
    if (!type) continue;
    const body = await readFile(path.join(dir, 'assets', name));
    const compressible = type.startsWith('text/') || type === 'image/svg+xml' || type === 'application/json';
    assets.set(name, { body, type, gzipped: compressible && body.length >= GZIP_FROM_BYTES ? gzipSync(body, { level: 9 }) : undefined });
  }
  return { index, assets };
}

export function contentSecurityPolicy(host: string | undefined): string {
  // 'self' covers ws: to the same host only in newer browsers: name the page's own origin for the
  // WebSockets (exec) explicitly, when the Host header is one that can be repeated safely.
  const sockets = host && HOST.test(host) ? ` ws://${host} wss://${host}` : '';
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "font-src 'self'",
    `connect-src 'self'${sockets}`,
    "frame-ancestors 'none'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
  ].join('; ');
}

function securityHeaders(raw: RawRequest): Record<string, string> {
  const host = raw.headers.host;
  return {
    'content-security-policy': contentSecurityPolicy(typeof host === 'string' ? host : undefined),
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    'x-frame-options': 'DENY',
  };
}

const accepts = (raw: RawRequest, encoding: string) => {
  const header = raw.headers['accept-encoding'];
  return typeof header === 'string' && header.split(',').some((e) => e.trim().split(';')[0] === encoding);
};

const ROUTE = '/ui';

/**
 * The UI's answer to a request, or undefined when the request is not the UI's (the API's routes take it).
 * `dir` is where the built UI is; by default the one beside the server.
 */
export function uiHandler(dir = defaultDir()): (raw: RawRequest) => Promise<RawResponse> | undefined {
  let built: Promise<Built> | undefined;
  const files = () => {
    built ??= load(dir).catch((err: unknown) => {
      // Not built yet (a checkout before `npm run build`): look again on the next request.
      built = undefined;
      throw err;
    });
    return built;
  };
  const serve = async (raw: RawRequest): Promise<RawResponse> => {
    const headers = securityHeaders(raw);
    if (raw.path === '/' || raw.path === ROUTE) {
      // The query goes along: `svc ui` opens the server's address with ?ott= and ?namespace= on it.
      const query = raw.query.toString();
      const location = `${ROUTE}/${query ? `?${query}` : ''}`;
      return { status: 307, headers: { ...headers, location, 'content-type': 'text/plain; charset=utf-8' }, body: `Moved to ${location}\n` };
    }
    let ui: Built;
    try {
      ui = await files();
    } catch {
      return { status: 404, headers: { ...headers, 'content-type': 'text/plain; charset=utf-8' }, body: 'The web UI is not part of this build: `npm run build` makes it.\n' };
    }
    const assetPrefix = `${ROUTE}/assets/`;
    if (raw.path.startsWith(assetPrefix)) {
      const name = raw.path.slice(assetPrefix.length);
      const asset = ASSET_NAME.test(name) ? ui.assets.get(name) : undefined;
      // A missing asset is a 404, never index.html: a script tag must not be handed a page.
      if (!asset) return { status: 404, headers: { ...headers, 'content-type': 'text/plain; charset=utf-8' }, body: 'no such UI asset\n' };
      const gzip = asset.gzipped && accepts(raw, 'gzip');
      return {
        status: 200,
        headers: {
          ...headers,
          'content-type': asset.type,
          // The name changes with the content, so a browser may keep what it has for good.
          'cache-control': 'public, max-age=31536000, immutable',
          vary: 'Accept-Encoding',
          ...(gzip ? { 'content-encoding': 'gzip' } : {}),
        },
        body: gzip ? asset.gzipped! : asset.body,
      };
    }
    // index.html names the current assets: a browser must ask for it again every time.
    return { status: 200, headers: { ...headers, 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-cache' }, body: ui.index };
  };
  // Decided at once, with no promise made: every API request asks first.
  return (raw) => {
    // HEAD as GET: node:http leaves the body out of the answer.
    if (raw.method !== 'GET' && raw.method !== 'HEAD') return undefined;
    if (raw.path !== '/' && raw.path !== ROUTE && !raw.path.startsWith(`${ROUTE}/`)) return undefined;
    return serve(raw);
  };
}
