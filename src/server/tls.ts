/**
 * The server's TLS (Vault's `tls_cert_file`/`tls_client_ca_file`, Nomad's `tls` block): the certificate
 * and key it serves, and the CAs client certificates are verified against. The files are read and
 * checked at start, so a bad one is named before anything listens.
 */
import { X509Certificate, createPrivateKey } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { ServerOptions as HttpsServerOptions } from 'node:https';
import { createSecureContext } from 'node:tls';
import { UsageError } from '../shared/errors.js';

export interface TlsSettings {
  /** PEM: the server's certificate, any intermediates after it */
  certFile: string;
  keyFile: string;
  /** PEM: the CAs client certificates are verified against; with it, every client is asked for one */
  clientCaFile?: string;
  /** refuse connections without a verified client certificate (the TLS handshake fails) */
  requireClientCert?: boolean;
  /** answer the node API only to connections with a verified client certificate (403 otherwise) */
  nodeClientCert?: boolean;
}

export interface ServerTls {
  options: HttpsServerOptions;
  /** SHA-256 fingerprint of the served certificate: the server's own node accepts no other */
  fingerprint: string;
}

const CLIENT_AUTH = '1.3.6.1.5.5.7.3.2';
const ANY_USAGE = '2.5.29.37.0';

async function read(file: string, what: string): Promise<string> {
  try {
    return await readFile(file, 'utf8');
  } catch (err) {
    throw new UsageError(`cannot read the TLS ${what} file ${file}: ${(err as Error).message}`);
  }
}

function certificates(pem: string, file: string, what: string): X509Certificate[] {
  const blocks = pem.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? [];
  if (blocks.length === 0) throw new UsageError(`the TLS ${what} file ${file} holds no PEM certificate`);
  try {
    return blocks.map((b) => new X509Certificate(b));
  } catch (err) {
    throw new UsageError(`the TLS ${what} file ${file} holds a certificate that cannot be read: ${(err as Error).message}`);
  }
}

/**
 * The server's own node presents the server's certificate as its client certificate (as a Nomad agent
 * does), so when the node API asks for one, that certificate must be one the client CAs accept.
 */
function checkOwnNodeCertificate(chain: X509Certificate[], cas: X509Certificate[], s: TlsSettings): void {
  const issued = chain.some((c) => cas.some((ca) => c.fingerprint256 === ca.fingerprint256 || (c.checkIssued(ca) && c.verify(ca.publicKey))));
  const usage = chain[0].keyUsage;
  const why = !issued
    ? `is not signed by a CA in ${s.clientCaFile}`
    : usage && !usage.includes(CLIENT_AUTH) && !usage.includes(ANY_USAGE)
      ? 'does not allow client authentication (its extended key usage lacks clientAuth)'
      : undefined;
  if (why) {
    throw new UsageError(`the server's own node presents the server certificate ${s.certFile} as its client certificate, and it ${why}: issue it from that CA for both server and client use, or start the server with -client=false`);
  }
}

/** Reads and checks the files; `ownNode` says whether the server runs its node (which must pass the client certificate check). */
export async function loadServerTls(s: TlsSettings, ownNode: boolean): Promise<ServerTls> {
  const [cert, key, ca] = await Promise.all([read(s.certFile, 'certificate'), read(s.keyFile, 'key'), s.clientCaFile ? read(s.clientCaFile, 'client CA') : undefined]);
  const chain = certificates(cert, s.certFile, 'certificate');
  let privateKey;
  try {
    privateKey = createPrivateKey(key);
  } catch (err) {
    throw new UsageError(`the TLS key file ${s.keyFile} holds no usable PEM private key: ${(err as Error).message}`);
  }
  if (!chain[0].checkPrivateKey(privateKey)) throw new UsageError(`the TLS key file ${s.keyFile} is not the key of the certificate in ${s.certFile}`);
  const cas = ca !== undefined ? certificates(ca, s.clientCaFile!, 'client CA') : [];
  const verifiesClients = s.requireClientCert === true || s.nodeClientCert === true;
  if (ownNode && verifiesClients) checkOwnNodeCertificate(chain, cas, s);
  const options: HttpsServerOptions = { cert, key };
  if (ca !== undefined) Object.assign(options, { ca, requestCert: true, rejectUnauthorized: s.requireClientCert === true });
  try {
    createSecureContext(options);
  } catch (err) {
    throw new UsageError(`the TLS files ${s.certFile} and ${s.keyFile} cannot be used: ${(err as Error).message}`);
  }
  return { options, fingerprint: chain[0].fingerprint256 };
}
