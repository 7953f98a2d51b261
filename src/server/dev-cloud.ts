/**
 * `svc server -dev -dev-cloud`: the loopback cloud provider simulator (src/cloudsim, which tests use too) runs in the
 * server process with one running instance, and the dev server's auth/cloud mount is set up to trust it,
 * so that a cloud login can be tried on a laptop. The simulator's signing certificates are registered on
 * this mount only, and only in this mode. Built into dist/dev-cloud.cjs, loaded only with -dev-cloud.
 */
import { clientConfigFor, startCloudSim } from '../cloudsim/index.js';
import type { SvcServer } from './app.js';

export interface DevCloud {
  /** what the start-up banner shows: where the metadata service is and how to log in */
  banner: string[];
  /** the metadata service's URL, for CLOUD_METADATA_ENDPOINT */
  metadataUrl: string;
  close(): Promise<void>;
}

const INSTANCE_ROLE = 'dev-instance';

/** `port` (-dev-cloud-port) fixes the simulator's port; without it a free one is taken. */
export async function startDevCloud(server: SvcServer, opts: { port?: number } = {}): Promise<DevCloud> {
  const sim = await startCloudSim({ port: opts.port });
  try {
    const role = sim.addRole({ name: INSTANCE_ROLE });
    sim.addInstanceProfile({ name: INSTANCE_ROLE, roleName: role.name });
    const instance = sim.addInstance({ instanceProfile: INSTANCE_ROLE });
    sim.useInstance(instance.instanceId);

    // Through the server's own request handler, so every value is validated as a user's request would be.
    const write = async (path: string, data: Record<string, unknown>) => {
      const answer = await server.handle({
        method: 'POST',
        path: `/v1/auth/cloud/${path}`,
        query: new URLSearchParams(),
        headers: { 'x-svc-token': server.rootToken, 'content-type': 'application/json' },
        body: Buffer.from(JSON.stringify(data)),
        remoteAddress: '127.0.0.1',
      });
      if (answer.status >= 300) throw new Error(`writing auth/cloud/${path} failed: ${answer.status} ${answer.body.toString()}`);
    };
    await write('config/client', clientConfigFor(sim));
    await write('config/certificate/dev-cloud-rsa2048', { type: 'pkcs7', cloud_public_cert: sim.certificates.rsa2048 });
    await write('config/certificate/dev-cloud-pkcs7', { type: 'pkcs7', cloud_public_cert: sim.certificates.pkcs7 });
    await write('config/certificate/dev-cloud-identity', { type: 'identity', cloud_public_cert: sim.certificates.signature });
    await write('role/dev-ec2', { auth_type: 'ec2', bound_account_id: sim.account, token_policies: 'default' });
    await write('role/dev-iam', { auth_type: 'iam', bound_iam_principal_arn: role.arn, token_policies: 'default' });

    return {
      banner: [
        `Cloud simulator (-dev-cloud): ${sim.url}, account ${sim.account}, instance ${instance.instanceId} with role ${INSTANCE_ROLE}.`,
        'auth/cloud trusts its certificates and has the roles dev-ec2 (ec2) and dev-iam (iam). Log in as the instance with:',
        '',
        `    export CLOUD_METADATA_ENDPOINT='${sim.metadataUrl}'`,
        '    svc login -method=cloud type=ec2 role=dev-ec2',
        '    svc login -method=cloud type=iam role=dev-iam',
      ],
      metadataUrl: sim.metadataUrl,
      close: () => sim.close(),
    };
  } catch (err) {
    await sim.close();
    throw err;
  }
}
