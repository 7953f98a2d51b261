/** The tcp check against real ports: one that accepts connections, one where nothing listens. */
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runTcpCheck } from '../../../src/client/checks/tcp-check.js';

let server: net.Server;
let open: number;
let closed: number;

beforeAll(async () => {
  server = net.createServer((socket) => socket.end());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  open = (server.address() as AddressInfo).port;
  const other = net.createServer();
  await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
  closed = (other.address() as AddressInfo).port;
  await new Promise((resolve) => other.close(resolve));
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

describe('tcp check', () => {
  it('passes when the port accepts a connection', async () => {
    expect(await runTcpCheck({ host: '127.0.0.1', port: open }, 10_000)).toEqual({ Status: 'success', Output: 'nomad: tcp ok' });
  });

  it('fails with Go\'s dial error when nothing listens', async () => {
    expect(await runTcpCheck({ host: '127.0.0.1', port: closed }, 10_000)).toEqual({
      Status: 'failure',
      Output: `dial tcp 127.0.0.1:${closed}: connect: connection refused`,
    });
  });

  it('fails without a port to connect to', async () => {
    expect(await runTcpCheck({ host: '127.0.0.1', port: 0 }, 10_000)).toEqual({ Status: 'failure', Output: 'dial tcp 127.0.0.1: missing port in address' });
  });
});
