// The cloud provider of the login benchmark, in a process of its own (bench/cloud.mjs bundles this file
// and forks it): the loopback simulator (src/cloudsim, as -dev-cloud serves it) with one running instance per login to
// make, so that every login sends an identity document the server has never seen, signed by the
// simulator as the provider signs it. The server's calls to the provider (DescribeInstances,
// GetCallerIdentity) are answered here, outside the server's process, as the real provider's would be.
import { writeFileSync } from 'node:fs';
import { clientConfigFor, startCloudSim } from '../src/cloudsim/index.js';

const ROLE = 'bench-instance';
const noNewlines = (s: string) => s.replace(/\s+/g, '');

const sim = await startCloudSim();

async function metadataSession(): Promise<(p: string) => Promise<string>> {
  const answer = await fetch(`${sim.metadataUrl}/latest/api/token`, { method: 'PUT', headers: { 'X-aws-ec2-metadata-token-ttl-seconds': '21600' } });
  if (answer.status !== 200) throw new Error(`metadata token: HTTP ${answer.status}`);
  const token = await answer.text();
  return async (p) => {
    const res = await fetch(`${sim.metadataUrl}/latest/${p}`, { headers: { 'X-aws-ec2-metadata-token': token } });
    if (res.status !== 200) throw new Error(`metadata GET ${p}: HTTP ${res.status}`);
    return res.text();
  };
}

// The same { id, cmd, arg } → { id, result | error } exchange as bench/lib.mjs's serveParent (a .mjs
// module the type checker cannot see into).
const handlers = {
  /**
   * `rsa2048` instances with their RSA-2048 PKCS#7 documents and `identity` more with their plain
   * documents and signatures, written to `file` as JSON; answers what the server's mount needs to trust
   * this provider and the role credentials of one instance (for iam logins).
   */
  async setup({ rsa2048, identity, file }: { rsa2048: number; identity: number; file: string }) {
    const role = sim.addRole({ name: ROLE });
    sim.addInstanceProfile({ name: ROLE, roleName: role.name });
    const get = await metadataSession();
    // The metadata service describes one instance at a time: each document is fetched as that instance.
    const documents: { rsa2048: string[]; identity: { document: string; signature: string }[] } = { rsa2048: [], identity: [] };
    for (let i = 0; i < rsa2048; i++) {
      sim.useInstance(sim.addInstance({ instanceProfile: ROLE }).instanceId);
      documents.rsa2048.push(noNewlines(await get('dynamic/instance-identity/rsa2048')));
    }
    for (let i = 0; i < identity; i++) {
      sim.useInstance(sim.addInstance({ instanceProfile: ROLE }).instanceId);
      const document = await get('dynamic/instance-identity/document');
      documents.identity.push({ document, signature: noNewlines(await get('dynamic/instance-identity/signature')) });
    }
    writeFileSync(file, JSON.stringify(documents));
    const creds = JSON.parse(await get(`meta-data/iam/security-credentials/${ROLE}`));
    return { clientConfig: clientConfigFor(sim), certificates: sim.certificates, account: sim.account, roleArn: role.arn, creds };
  },
};

process.on('disconnect', () => process.exit(0));
process.on('message', async ({ id, cmd, arg }: { id: number; cmd: string; arg: unknown }) => {
  try {
    process.send!({ id, result: await handlers[cmd as keyof typeof handlers](arg as Parameters<typeof handlers.setup>[0]) });
  } catch (err) {
    process.send!({ id, error: (err as Error)?.stack ?? String(err) });
  }
});
