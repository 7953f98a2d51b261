/** A tcp check: passes when a connection to the target opens within the timeout, as Nomad's does. */
import net from 'node:net';
import { type CheckTarget, joinHostPort } from './address.js';
import { type CheckOutcome, dialError } from './outcome.js';

export function runTcpCheck(target: CheckTarget, timeoutMs: number, signal?: AbortSignal): Promise<CheckOutcome> {
  const addr = joinHostPort(target);
  if (target.port <= 0) return Promise.resolve({ Status: 'failure', Output: `dial tcp ${addr}: missing port in address` });
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve({ Status: 'failure', Output: `dial tcp ${addr}: operation was canceled` });
    const socket = net.connect({ host: target.host, port: target.port });
    const finish = (outcome: CheckOutcome) => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', stop);
      socket.destroy();
      resolve(outcome);
    };
    const stop = () => finish({ Status: 'failure', Output: `dial tcp ${addr}: operation was canceled` });
    const timer = setTimeout(() => finish({ Status: 'failure', Output: `dial tcp ${addr}: i/o timeout` }), timeoutMs);
    timer.unref();
    signal?.addEventListener('abort', stop, { once: true });
    socket.once('connect', () => finish({ Status: 'success', Output: 'nomad: tcp ok' }));
    socket.once('error', (err: NodeJS.ErrnoException) => finish({ Status: 'failure', Output: dialError(addr, err) }));
  });
}
