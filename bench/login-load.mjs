// A load-generator process (forked by bench/cloud.mjs, several at once): prepares its share of cloud login
// bodies, then sends them as fast as the server answers, `concurrency` at a time over keep-alive connections.
import aws4 from 'aws4';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import { call, serveParent, wallNow } from './lib.mjs';

const url = process.argv[2];
const CALLER_IDENTITY_BODY = 'Action=GetCallerIdentity&Version=2011-06-15';
const b64 = (s) => Buffer.from(s, 'utf8').toString('base64');
let bodies = [];

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
    role: 'bench-iam',
    iam_http_request_method: 'POST',
    iam_request_url: b64('https://sts.amazonaws.com/'),
    iam_request_body: b64(CALLER_IDENTITY_BODY),
    iam_request_headers: b64(JSON.stringify(headers)),
  };
}

serveParent({
  /** This process's share [from, to) of the `kind` documents in `file` (iam: `to - from` fresh signatures). */
  prepare({ kind, file, from, to, creds }) {
    if (kind === 'iam') {
      bodies = Array.from({ length: to - from }, () => iamLogin(creds));
    } else {
      const documents = JSON.parse(readFileSync(file, 'utf8'));
      bodies =
        kind === 'rsa2048'
          ? documents.rsa2048.slice(from, to).map((pkcs7) => ({ role: 'bench-ec2', pkcs7 }))
          : documents.identity.slice(from, to).map((d) => ({ role: 'bench-ec2', identity: b64(d.document), signature: d.signature }));
    }
    return bodies.length;
  },
  /** Sends the prepared logins; the first failure stops this process's share. Answers its wall-clock span. */
  async run({ concurrency }) {
    const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
    let next = 0;
    let error;
    const worker = async () => {
      while (next < bodies.length && !error) {
        await call(url, '', 'POST', '/v1/auth/cloud/login', bodies[next++], agent).catch((err) => (error ??= err.message));
      }
    };
    const startedAt = wallNow();
    await Promise.all(Array.from({ length: concurrency }, worker));
    const endedAt = wallNow();
    agent.destroy();
    return { startedAt, endedAt, sent: next, error };
  },
});
