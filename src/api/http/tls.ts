/**
 * The API client's TLS, loaded only for https:// addresses (node:tls takes a while to load): the
 * connection options the TLS flags make (-ca-cert, -client-cert, -client-key, -tls-skip-verify,
 * -tls-server-name, each with its SVC_* variable), a connection pinned to one certificate for the
 * server's own node, and the one line a failed connection becomes, saying for TLS which check failed and
 * what to pass.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { RequestOptions } from 'node:https';
import tls, { type ConnectionOptions, type TLSSocket } from 'node:tls';
import { ConnectionError, UsageError } from '../../shared/errors.js';

export interface ClientTls {
  /** PEM file of the CA certificates the server's certificate must chain to; Node's bundled roots without it */
  caCert?: string;
  /** a directory of such PEM files, as Vault's and Nomad's CA path; caCert wins when both are set */
  caPath?: string;
  /** PEM files of the client certificate and its key, for servers that ask for one */
  clientCert?: string;
  clientKey?: string;
  /** accept any server certificate (for a quick test against a self-signed server, never in production) */
  skipVerify?: boolean;
  /** the name sent as SNI and checked against the server's certificate, when the address holds another */
  serverName?: string;
  /**
   * The SHA-256 fingerprint (as node:crypto writes it) of the only certificate accepted, whatever names it
   * holds: the server's own node, which connects to the port its process listens on with that certificate.
   */
  pinnedCert?: string;
}

function readPem(file: string, what: string, flag: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (err) {
    throw new UsageError(`cannot read the ${what} file ${file} (${flag}): ${(err as Error).message}`);
  }
}

/** The certificates of every PEM file in `dir`, as Go's CA path loading reads a directory; other files are skipped. */
function readPemDir(dir: string): string {
  let names: string[];
  try {
    names = readdirSync(dir).sort();
  } catch (err) {
    throw new UsageError(`cannot read the CA directory ${dir} (-ca-path): ${(err as Error).message}`);
  }
  const pems = names
    .map((name) => join(dir, name))
    .filter((file) => statSync(file, { throwIfNoEntry: false })?.isFile())
    .map((file) => readPem(file, 'CA certificate', '-ca-path'))
    .filter((text) => text.includes('-----BEGIN CERTIFICATE-----'));
  if (pems.length === 0) throw new UsageError(`the CA directory ${dir} (-ca-path) holds no PEM certificate`);
  return pems.join('\n');
}

/** Checks the PEM contents now, so a bad file is named here rather than failing every connection. */
function usable(options: ConnectionOptions, what: string): void {
  try {
    tls.createSecureContext(options);
  } catch (err) {
    throw new UsageError(`${what} cannot be used: ${(err as Error).message}`);
  }
}

/**
 * A connection that is handed to the request only once the server showed the pinned certificate, so
 * nothing (the node's secret least of all) is sent to another peer.
 */
function pinnedConnection(fingerprint: string, base: ConnectionOptions): RequestOptions['createConnection'] {
  return ((options: ConnectionOptions, done: (err: Error | null, socket?: TLSSocket) => void) => {
    const socket = tls.connect({ ...options, ...base, rejectUnauthorized: false });
    const fail = (err: Error) => done(err);
    socket.once('error', fail);
    socket.once('secureConnect', () => {
      socket.off('error', fail);
      if (socket.getPeerX509Certificate()?.fingerprint256 === fingerprint) return done(null, socket);
      socket.destroy();
      done(new Error(`the server presented a certificate other than the one this node was started with (${fingerprint})`));
    });
    return undefined;
  }) as unknown as RequestOptions['createConnection'];
}

/** The options for https.request (and for WebSocket and proxied connections, which ignore the pinning). */
export function tlsRequestOptions(t: ClientTls = {}): RequestOptions {
  if (!t.clientCert !== !t.clientKey) throw new UsageError('a client certificate needs its key: pass both -client-cert and -client-key (SVC_CLIENT_CERT, SVC_CLIENT_KEY)');
  const options: RequestOptions = {};
  if (t.caCert) {
    options.ca = readPem(t.caCert, 'CA certificate', '-ca-cert');
    // node:tls skips what is not a certificate, so a key or an empty file would leave nothing trusted.
    if (!options.ca.includes('-----BEGIN CERTIFICATE-----')) throw new UsageError(`the CA certificate file ${t.caCert} (-ca-cert) holds no PEM certificate`);
    usable({ ca: options.ca }, `the CA certificate file ${t.caCert} (-ca-cert)`);
  } else if (t.caPath) {
    options.ca = readPemDir(t.caPath);
    usable({ ca: options.ca }, `the CA certificates in ${t.caPath} (-ca-path)`);
  }
  if (t.clientCert && t.clientKey) {
    options.cert = readPem(t.clientCert, 'client certificate', '-client-cert');
    options.key = readPem(t.clientKey, 'client key', '-client-key');
    usable({ cert: options.cert, key: options.key }, `the client certificate ${t.clientCert} with the key ${t.clientKey} (-client-cert, -client-key)`);
  }
  if (t.skipVerify) options.rejectUnauthorized = false;
  if (t.serverName) options.servername = t.serverName;
  if (t.pinnedCert) {
    // Without an agent, node:http uses createConnection; an agent would make its own connections.
    options.agent = undefined;
    options.createConnection = pinnedConnection(t.pinnedCert, { ca: options.ca, cert: options.cert, key: options.key });
  }
  return options;
}

const UNTRUSTED = new Set([
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'CERT_UNTRUSTED',
  'CERT_SIGNATURE_FAILURE',
]);

type TlsError = NodeJS.ErrnoException & { host?: string; cert?: { subjectaltname?: string } };

/**
 * Why a connection to `url` failed, in one line that says what to pass, when TLS is the reason;
 * undefined otherwise. A Node server that requires client certificates drops a connection whose
 * certificate it does not trust without a TLS alert, so a client that sent one reads a hang-up that way.
 */
export function tlsFailure(err: TlsError, url: URL, t: ClientTls = {}): string | undefined {
  const code = err.code ?? '';
  const hungUp = code === 'ECONNRESET' && /socket hang up|before secure TLS connection/.test(err.message);
  if (url.protocol !== 'https:' && url.protocol !== 'wss:') {
    return hungUp ? 'the server closed the connection without answering; if it serves TLS, the address must start with https://' : undefined;
  }
  if (UNTRUSTED.has(code)) {
    const trusted = t.caCert ? `the CA in ${t.caCert}` : 'a CA this client trusts';
    return `the server's certificate is not signed by ${trusted} (${code}): pass the CA certificate that signed it with -ca-cert (or SVC_CACERT)`;
  }
  if (code === 'ERR_TLS_CERT_ALTNAME_INVALID') {
    const names = err.cert?.subjectaltname ? `it names ${err.cert.subjectaltname}` : 'it names no host';
    return `the server's certificate is not valid for ${err.host ?? url.hostname} (${names}): use one of its names in the address, or pass it with -tls-server-name (or SVC_TLS_SERVER_NAME)`;
  }
  if (code === 'CERT_HAS_EXPIRED' || code === 'CERT_NOT_YET_VALID') {
    return `the server's certificate ${code === 'CERT_HAS_EXPIRED' ? 'has expired' : 'is not valid yet'} (${code}): the server needs a current certificate`;
  }
  const required = code === 'ERR_SSL_TLSV13_ALERT_CERTIFICATE_REQUIRED' || (code === 'EPROTO' && /alert handshake failure/.test(err.message) && !t.clientCert);
  if (required) {
    return 'the server requires a client certificate: pass one signed by the CA it trusts with -client-cert and -client-key (or SVC_CLIENT_CERT and SVC_CLIENT_KEY)';
  }
  if (t.clientCert && (/ALERT_(UNKNOWN_CA|BAD_CERTIFICATE|CERTIFICATE_UNKNOWN|HANDSHAKE_FAILURE)/.test(code) || /alert handshake failure/.test(err.message))) {
    return `the server refused the client certificate ${t.clientCert}: pass one signed by the CA it trusts with -client-cert and -client-key`;
  }
  if (t.clientCert && hungUp) {
    return `the server closed the connection without answering, as it does when it does not trust the client certificate (${t.clientCert}): pass one signed by the CA it trusts with -client-cert and -client-key`;
  }
  if (/wrong version number/.test(err.message)) return `the server at ${url.host} does not speak TLS: use an http:// address`;
  return undefined;
}

/** What a failed connection becomes: one line saying why; `proxyHost` when it went through a proxy. */
export function connectionError(err: NodeJS.ErrnoException, url: URL, config: { address: string; tls?: ClientTls }, proxyHost?: string): ConnectionError {
  const where = `cannot reach the server at ${config.address}${proxyHost ? ` through the proxy ${proxyHost}` : ''}`;
  if (err.code === 'ECONNREFUSED' && !proxyHost) return new ConnectionError(`${where} (connection refused); is \`svc server\` running? Set SVC_ADDR or -address to point elsewhere`);
  return new ConnectionError(`${where}: ${tlsFailure(err, url, config.tls) ?? err.message}`);
}
