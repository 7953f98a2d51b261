import net from 'node:net';

/**
 * A loopback port that was free a moment ago: for what must be given a port rather than pick one (a
 * configured port, a PostgreSQL that cannot report the port 0 chose).
 */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}
