/**
 * The curl command equivalent to a request, as Vault's -output-curl-string prints it: `-X` unless GET,
 * the TLS files as curl options, each header as `-H`, the body as `-d '...'` and the full URL last
 * (quoted when it holds `&` or another character a shell would read). The token is written as
 * `$(svc print token)`, so it never lands in shell history or a pasted snippet.
 */
import type { ClientTls } from './tls.js';

/** Single-quoted for a POSIX shell: a quote inside becomes '"'"'. */
function shellQuote(text: string): string {
  return `'${text.replaceAll("'", `'"'"'`)}'`;
}

/** Content-Type -> Content-Type, x-svc-token -> X-Svc-Token: the spelling Go's client would print. */
function canonicalHeader(name: string): string {
  return name.replace(/(^|-)([a-z])/g, (_, dash: string, c: string) => dash + c.toUpperCase());
}

export function curlString(method: string, url: URL, headers: Record<string, string>, body: Buffer | undefined, tls: ClientTls | undefined): string {
  const parts = ['curl'];
  if (tls?.skipVerify) parts.push('--insecure');
  if (method !== 'GET') parts.push(`-X ${method}`);
  if (tls?.caCert) parts.push(`--cacert ${shellQuote(tls.caCert)}`);
  else if (tls?.caPath) parts.push(`--capath ${shellQuote(tls.caPath)}`);
  if (tls?.clientCert) parts.push(`--cert ${shellQuote(tls.clientCert)}`);
  if (tls?.clientKey) parts.push(`--key ${shellQuote(tls.clientKey)}`);
  for (const [name, value] of Object.entries(headers)) {
    if (name.toLowerCase() === 'content-length') continue;
    const shown = name.toLowerCase() === 'x-svc-token' ? '$(svc print token)' : value;
    parts.push(`-H "${canonicalHeader(name)}: ${shown}"`);
  }
  if (body && body.length > 0) parts.push(`-d ${shellQuote(body.toString('utf8'))}`);
  // Quoted only when the shell would read it otherwise: `&` between query parameters ends a command.
  const href = url.toString();
  parts.push(/^[\w.:/?=%~+@,-]+$/.test(href) ? href : shellQuote(href));
  return parts.join(' ');
}
