/**
 * A cloud auth mount pointed at cloudsim, as the cloud login tests need it: config/client with the
 * simulator's root user and endpoints (no retries, so a failure shows at once) and the simulator's three
 * signer certificates registered with their types.
 */
import type { CloudSim } from '../../src/cloudsim/index.js';
import { clientConfigFor } from '../../src/cloudsim/index.js';
import type { TestServer } from './server.js';

export async function mountCloud(
  /** a listening server or an in-process one: only its client is used */
  srv: Pick<TestServer, 'client'>,
  mount: string,
  sim: CloudSim,
  clientConfig: Record<string, unknown> = {},
  mountConfig?: Record<string, unknown>,
): Promise<void> {
  const c = srv.client();
  await c.secrets('POST', `sys/auth/${mount}`, { body: { type: 'cloud', ...(mountConfig ? { config: mountConfig } : {}) } });
  await c.secrets('POST', `auth/${mount}/config/client`, { body: { ...clientConfigFor(sim), max_retries: 0, ...clientConfig } });
  for (const [name, pem, type] of [
    ['sim-pkcs7', sim.certificates.pkcs7, 'pkcs7'],
    ['sim-rsa2048', sim.certificates.rsa2048, 'pkcs7'],
    ['sim-identity', sim.certificates.signature, 'identity'],
  ]) {
    await c.secrets('POST', `auth/${mount}/config/certificate/${name}`, { body: { cloud_public_cert: pem, type } });
  }
}
