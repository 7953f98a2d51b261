/**
 * The two sides' answer formats: the secrets side's errors are `{"errors": [...]}` bodies (its envelope
 * for successes is src/secrets/http/envelope.ts), the scheduler side answers in Nomad's PascalCase JSON
 * with plain-text error bodies. Errors become statuses here and nowhere else.
 */
import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { NoLeader, SvcError, Unavailable } from '../../shared/errors.js';
import type { RawResponse } from './types.js';

const JSON_TYPE = { 'content-type': 'application/json' };

/** A 503 says when to try again: soon, since the store reconnects on the next write. */
const RETRY_AFTER = { 'retry-after': '2' };
const retryHeaders = (status: number) => (status === 503 ? RETRY_AFTER : {});

export function secretsError(status: number, messages: string[]): RawResponse {
  return { status, headers: { ...JSON_TYPE, ...retryHeaders(status) }, body: JSON.stringify({ errors: messages }) };
}

export function schedulerJson(body: unknown, status = 200, headers: Record<string, string> = {}): RawResponse {
  return { status, headers: { ...JSON_TYPE, ...headers }, body: JSON.stringify(body) };
}

export function schedulerError(status: number, message: string): RawResponse {
  return { status, headers: { 'content-type': 'text/plain; charset=utf-8', ...retryHeaders(status) }, body: message };
}

/**
 * Status and user-facing message of any thrown value; unknown errors are 500s. An Unavailable is not
 * logged per request: the store logs the outage once, with its cause; nor is a NoLeader.
 */
export function classify(err: unknown): { status: number; message: string; internal: boolean } {
  if (err instanceof Unavailable || err instanceof NoLeader) return { status: err.statusCode, message: err.message, internal: false };
  if (err instanceof SvcError) return { status: err.statusCode, message: err.message, internal: err.statusCode >= 500 };
  const message = err instanceof Error ? err.message : String(err);
  return { status: 500, message: message || 'internal error', internal: true };
}

/**
 * Answers an upgrade request on its raw socket with an HTTP error (plain text), and ends the connection:
 * no response object exists for an upgrade.
 */
export function refuseSocket(socket: Duplex, status: number, message: string, headers: Record<string, string> = {}): void {
  const body = Buffer.from(message);
  const head = [`HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}`, 'content-type: text/plain; charset=utf-8', `content-length: ${body.length}`];
  for (const [name, value] of Object.entries({ ...retryHeaders(status), ...headers })) head.push(`${name}: ${value}`);
  head.push('connection: close');
  socket.end(Buffer.concat([Buffer.from(`${head.join('\r\n')}\r\n\r\n`), body]));
}
