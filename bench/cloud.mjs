// The cloud login's figures, against `svc server -dev -dev-cloud`: ec2 logins with each kind of signed
// document and iam logins, each a real POST /v1/auth/cloud/login that writes durably (access-list entry,
// entity alias, token). The simulator runs in the server's process, so its share of the work (the
// GetCallerIdentity and DescribeInstances calls the server makes) counts against the server's rate.
import aws4 from 'aws4';
import http from 'node:http';
import { performance } from 'node:perf_hooks';
import { call, startDevServer, table } from './lib.mjs';

const CALLER_IDENTITY_BODY = 'Action=GetCallerIdentity&Version=2011-06-15';
const b64 = (s) => Buffer.from(s, 'utf8').toString('base64');
const noNewlines = (s) => s.replace(/\s+/g, '');

/** The documents and role credentials of the simulated instance, from one IMDSv2 session. */
async function instanceProof(metadataUrl) {
  const tokenAnswer = await fetch(`${metadataUrl}/latest/api/token`, { method: 'PUT', headers: { 'X-aws-ec2-metadata-token-ttl-seconds': '21600' } });
  if (tokenAnswer.status !== 200) throw new Error(`metadata token: HTTP ${tokenAnswer.status}`);
  const token = await tokenAnswer.text();
  const get = async (p) => {
    const res = await fetch(`${metadataUrl}${p}`, { headers: { 'X-aws-ec2-metadata-token': token } });
    if (res.status !== 200) throw new Error(`metadata GET ${p}: HTTP ${res.status}`);
    return res.text();
  };
  const [document, signature, rsa2048, role] = await Promise.all(
    ['dynamic/instance-identity/document', 'dynamic/instance-identity/signature', 'dynamic/instance-identity/rsa2048', 'meta-data/iam/security-credentials/'].map((p) => get(`/latest/${p}`)),
  );
  const creds = JSON.parse(await get(`/latest/meta-data/iam/security-credentials/${role}`));
  return { document, signature, rsa2048, creds };
}

/** A GetCallerIdentity request signed now with the instance role's credentials, as login fields. */
function iamLogin(creds) {
  const signed = aws4.sign(
    {
      service: 'sts',
      region: 'us-east-1',
      method: 'POST',
      host: 'sts.amazonaws.com',
      path: '/',
      body: CALLER_IDENTITY_BODY,
      headers: { 'Content-Type': 'application/x-www-form-urlencoded; charset=utf-8' },
    },
    { accessKeyId: creds.AccessKeyId, secretAccessKey: creds.SecretAccessKey, sessionToken: creds.Token },
  );
  const headers = Object.fromEntries(Object.entries(signed.headers).map(([k, v]) => [k, [String(v)]]));
  return {
    role: 'dev-iam',
    iam_http_request_method: 'POST',
    iam_request_url: b64('https://sts.amazonaws.com/'),
    iam_request_body: b64(CALLER_IDENTITY_BODY),
    iam_request_headers: b64(JSON.stringify(headers)),
  };
}

/**
 * `n` logins with bodies from `make()`, `concurrency` at a time over keep-alive connections. The first
 * failure stops the row: answers { ms } or { error } with the server's answer.
 */
async function logins(url, n, concurrency, make) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
  let next = 0;
  let error;
  const worker = async () => {
    while (next < n && !error) {
      next++;
      await call(url, '', 'POST', '/v1/auth/cloud/login', make(), agent).catch((err) => (error ??= err.message));
    }
  };
  const start = performance.now();
  await Promise.all(Array.from({ length: concurrency }, worker));
  const ms = performance.now() - start;
  agent.destroy();
  return error ? { error } : { ms };
}

export async function cloudBench({ bin, env, concurrency, ec2Logins, iamLogins }) {
  const server = await startDevServer(bin, env, { args: ['-dev-cloud'], waitFor: /export CLOUD_METADATA_ENDPOINT='[^']+'/ });
  try {
    const metadataUrl = /export CLOUD_METADATA_ENDPOINT='([^']+)'/.exec(server.banner)[1];
    const proof = await instanceProof(metadataUrl);
    const identity = { role: 'dev-ec2', identity: b64(proof.document), signature: noNewlines(proof.signature) };
    const rsa2048 = { role: 'dev-ec2', pkcs7: noNewlines(proof.rsa2048) };

    console.log(`\nCloud logins: POST /v1/auth/cloud/login against -dev -dev-cloud, ${concurrency} concurrent\n`);
    const header = ['login', 'logins', 'total', 'rate', 'target'];
    // The instance's first login gets the nonce its later logins must send, as a real instance's would.
    let nonce;
    try {
      nonce = (await call(server.url, '', 'POST', '/v1/auth/cloud/login', identity)).body.auth.metadata.nonce;
    } catch (err) {
      const missing = /HTTP (404|405)/.test(err.message);
      console.log(table(header, ['ec2 identity + signature', 'ec2 pkcs7 (rsa2048)', 'iam (GetCallerIdentity)'].map((label) => [label, '', '', missing ? 'login endpoint missing' : 'failed, see below', ''])));
      if (!missing) console.log(`\nthe instance's first login: ${err.message}`);
      return;
    }
    const rows = [];
    const failures = [];
    for (const [label, n, make, target] of [
      ['ec2 identity + signature', ec2Logins, () => ({ ...identity, nonce }), '1,500 logins/s'],
      ['ec2 pkcs7 (rsa2048)', ec2Logins, () => ({ ...rsa2048, nonce }), '1,500 logins/s'],
      ['iam (GetCallerIdentity)', iamLogins, () => iamLogin(proof.creds), ''],
    ]) {
      const result = await logins(server.url, n, concurrency, make);
      if (result.error) failures.push(`${label}: ${result.error}`);
      rows.push(result.error ? [label, n, '', 'failed, see below', target] : [label, n, `${result.ms.toFixed(0)} ms`, `${((n / result.ms) * 1000).toFixed(0)} logins/s`, target]);
    }
    console.log(table(header, rows));
    for (const failure of failures) console.log(`\n${failure}`);
  } finally {
    await server.stop();
  }
}
