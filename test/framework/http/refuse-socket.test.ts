/**
 * A refused upgrade (a WebSocket the server will not take) is a plain HTTP answer on the socket: its
 * status, a text body, `connection: close`, and for a 503 the same Retry-After as every other 503.
 */
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { refuseSocket } from '../../../src/framework/http/respond.js';

async function refusal(status: number, message: string): Promise<{ head: string[]; body: string }> {
  const socket = new PassThrough();
  const chunks: Buffer[] = [];
  socket.on('data', (c: Buffer) => chunks.push(c));
  const ended = new Promise((resolve) => socket.on('end', resolve));
  refuseSocket(socket, status, message, { 'x-svc-request-id': 'r-1' });
  await ended;
  const [head, body] = Buffer.concat(chunks).toString('utf8').split('\r\n\r\n');
  return { head: head.split('\r\n'), body };
}

describe('a refused upgrade', () => {
  it('answers a 503 with Retry-After, as every 503 does', async () => {
    const { head, body } = await refusal(503, 'server shutting down');
    expect(head[0]).toBe('HTTP/1.1 503 Service Unavailable');
    expect(head).toContain('retry-after: 2');
    expect(head).toContain('x-svc-request-id: r-1');
    expect(head).toContain('connection: close');
    expect(head).toContain(`content-length: ${Buffer.byteLength('server shutting down')}`);
    expect(body).toBe('server shutting down');
  });

  it('answers another refusal without one', async () => {
    const { head, body } = await refusal(403, 'Permission denied');
    expect(head[0]).toBe('HTTP/1.1 403 Forbidden');
    expect(head.some((h) => h.startsWith('retry-after'))).toBe(false);
    expect(body).toBe('Permission denied');
  });
});
