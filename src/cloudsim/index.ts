/**
 * cloudsim — a loopback simulator of the cloud provider (AWS-compatible wire formats) for tests.
 *
 * One HTTP server on 127.0.0.1 serves:
 *  - the query-protocol APIs of ec2 / iam / sts (POST form body or GET query), the service taken from the
 *    Signature V4 credential scope; every request's signature is verified like the real provider does;
 *  - an IMDSv2 instance metadata service under /latest/ for the "current" instance.
 *
 * This module is the handle tests and -dev-cloud hold; the state it drives and each service live in
 * their own files. See README.md in this folder for the behaviour list.
 */
import { delayNext, failNext, respondNext, setPageSize, type CannedAnswer, type FailureSpec } from './hooks.js';
import { identityDocument } from './metadata.js';
import { listen } from './server.js';
import {
  addInstance,
  addInstanceProfile,
  addRole,
  addUser,
  createState,
  issueSession,
  mustInstance,
  now,
  roleByArn,
  type AddInstanceOptions,
  type InstanceStateName,
  type MetadataRequest,
  type Rsa2048SignatureAlgorithm,
  type SimCredentials,
  type SimInstance,
  type SimInstanceProfile,
  type SimRequest,
  type SimRole,
  type SimUser,
} from './state.js';

export type { CannedAnswer, FailureSpec } from './hooks.js';
export type { AddInstanceOptions, InstanceStateName, MetadataRequest, SimCredentials, SimInstance, SimInstanceProfile, SimRequest, SimRole, SimUser } from './state.js';

export interface CloudSimOptions {
  /** Default region for instances and the metadata service (default us-east-1). */
  region?: string;
  /** Account of the root credentials and of everything created without accountId (default random 12 digits). */
  account?: string;
  /** Encode pkcs7/rsa2048 documents as BER with indefinite lengths like the real service (default true). */
  berPkcs7?: boolean;
  /** SignerInfo.signatureAlgorithm of rsa2048 documents: 'sha256WithRSAEncryption' (newer, default, with the
   * CMS algorithm-protection attribute) or 'rsaEncryption' (older documents). */
  rsa2048SignatureAlgorithm?: Rsa2048SignatureAlgorithm;
  /** Port to listen on, on 127.0.0.1 (default 0: a free one). */
  port?: number;
}

export interface CloudSim {
  /** Base URL of the API endpoint (ec2, iam and sts all live here). */
  readonly url: string;
  readonly endpoint: string;
  /** Base URL of the metadata service (same server; paths start with /latest/). */
  readonly metadataUrl: string;
  readonly port: number;
  readonly region: string;
  readonly account: string;
  /** Self-signed signer certificates (PEM) to register as trusted: pkcs7 (DSA), rsa2048 (RSA-2048), signature (RSA-2048). */
  readonly certificates: { pkcs7: string; rsa2048: string; signature: string };
  /** An IAM user's access key in `account` (user "svc-root", path "/"). */
  readonly rootCredentials: SimUser;
  /** Every API call (not metadata calls), in order, successful or not. */
  readonly requests: SimRequest[];
  readonly metadataRequests: MetadataRequest[];

  addUser(o: { name: string; path?: string; accountId?: string }): SimUser;
  addRole(o: { name: string; path?: string; accountId?: string; maxSessionDuration?: number }): SimRole;
  addInstanceProfile(o: { name: string; roleName?: string; path?: string; accountId?: string }): SimInstanceProfile;
  addInstance(o?: AddInstanceOptions): SimInstance;
  getInstance(id: string): SimInstance;
  setInstanceState(id: string, state: InstanceStateName): void;
  setPendingTime(id: string, iso: string): void;
  /** Which instance the metadata service describes (undefined: none → 404s). */
  useInstance(id: string | undefined): void;
  /** Issue temporary credentials for a role as AssumeRole would (without an API call). */
  assumeRole(roleArn: string, sessionName: string, durationSeconds?: number): SimCredentials & { expiration: Date; arn: string };
  /** Delete an access key (permanent or temporary) so that later calls get InvalidClientTokenId. */
  revokeAccessKey(accessKeyId: string): void;
  /** Make the next `times` calls of `action` ('*' = any) fail with the given status/code. */
  failNext(action: string, spec?: FailureSpec): void;
  /**
   * Answer the next `times` calls of `action` ('*' = any) with this raw status/body instead of the simulated
   * answer — for answers the provider can give but the simulator never produces on its own (a proxy's
   * non-XML error page, a truncated body). The signature is still checked first; failNext wins over it.
   */
  respondNext(action: string, answer: CannedAnswer): void;
  /** Hold the answer to the next `times` calls of `action` ('*' = any) for `ms` before handling them normally. */
  delayNext(action: string, ms: number, times?: number): void;
  /**
   * Largest page DescribeInstances (nextToken) and ListAccessKeys (Marker/IsTruncated) return; undefined
   * (default) = everything in one page. The real services may split any list into pages.
   */
  setPageSize(n: number | undefined): void;
  /** Shift the simulator's clock (signature skew window, credential expiry). */
  advanceClock(ms: number): void;
  now(): Date;
  /** The identity document bytes the metadata service currently serves. */
  identityDocument(): Buffer;
  close(): Promise<void>;
}

/** The body of auth/<mount>/config/client that points a cloud mount at this simulator, as its root user. */
export function clientConfigFor(sim: CloudSim): Record<string, string> {
  return {
    access_key: sim.rootCredentials.accessKeyId,
    secret_key: sim.rootCredentials.secretAccessKey,
    endpoint: sim.url,
    iam_endpoint: sim.url,
    sts_endpoint: sim.url,
    sts_region: 'us-east-1',
  };
}

export async function startCloudSim(opts: CloudSimOptions = {}): Promise<CloudSim> {
  const s = createState({
    region: opts.region ?? 'us-east-1',
    account: opts.account ?? String(100000000000 + Math.floor(Math.random() * 899999999999)),
    ber: opts.berPkcs7 ?? true,
    rsa2048SignatureAlgorithm: opts.rsa2048SignatureAlgorithm ?? 'sha256WithRSAEncryption',
  });
  const server = await listen(s, opts.port ?? 0);
  const url = `http://127.0.0.1:${server.port}`;
  const rootRec = addUser(s, { name: 'svc-root' });

  return {
    url,
    endpoint: url,
    metadataUrl: url,
    port: server.port,
    region: s.region,
    account: s.account,
    certificates: { pkcs7: s.signers.pkcs7.pem, rsa2048: s.signers.rsa2048.pem, signature: s.signers.signature.pem },
    rootCredentials: rootRec,
    requests: s.requests,
    metadataRequests: s.metadataRequests,
    addUser: (o) => addUser(s, o),
    addRole: (o) => addRole(s, o),
    addInstanceProfile: (o) => addInstanceProfile(s, o),
    addInstance: (o) => addInstance(s, o),
    getInstance: (id) => mustInstance(s, id),
    setInstanceState(id, state) {
      mustInstance(s, id).state = state;
    },
    setPendingTime(id, t) {
      mustInstance(s, id).pendingTime = t;
    },
    useInstance(id) {
      if (id !== undefined) mustInstance(s, id);
      s.currentInstance = id;
    },
    assumeRole(roleArn, sessionName, durationSeconds = 3600) {
      const role = roleByArn(s, roleArn);
      if (!role) throw new Error(`cloudsim: no role ${roleArn}`);
      const k = issueSession(s, role, sessionName, durationSeconds);
      return {
        accessKeyId: k.accessKeyId,
        secretAccessKey: k.secret,
        sessionToken: k.sessionToken,
        expiration: k.expiration!,
        arn: `arn:aws:sts::${role.accountId}:assumed-role/${role.name}/${sessionName}`,
      };
    },
    revokeAccessKey(id) {
      s.keys.delete(id);
    },
    failNext: (action, spec) => failNext(s, action, spec),
    respondNext: (action, a) => respondNext(s, action, a),
    delayNext: (action, ms, times) => delayNext(s, action, ms, times),
    setPageSize: (n) => setPageSize(s, n),
    advanceClock(ms) {
      s.clockOffset += ms;
    },
    now: () => now(s),
    identityDocument() {
      const inst = s.currentInstance ? s.instances.get(s.currentInstance) : undefined;
      if (!inst) throw new Error('cloudsim: no current instance');
      return identityDocument(inst);
    },
    close: () => server.close(),
  };
}
