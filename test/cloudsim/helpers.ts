/** Test-side client for cloudsim: signs with aws4 (an independent SigV4 implementation) and parses XML. */
import { request } from 'node:http';
import aws4 from 'aws4';
import { XMLParser } from 'fast-xml-parser';
import type { CloudSim } from '../../src/cloudsim/index.js';

export interface Creds {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
}

export interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  xml: any;
}

const parser = new XMLParser({ ignoreAttributes: true, parseTagValue: false, isArray: (name) => name === 'item' || name === 'member' });

export function raw(
  sim: CloudSim,
  o: { method: string; path: string; headers: Record<string, string | number>; body?: string },
): Promise<Answer> {
  const u = new URL(sim.url);
  return new Promise((resolve, reject) => {
    const req = request({ host: u.hostname, port: u.port, method: o.method, path: o.path, headers: o.headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let xml: unknown;
        try {
          xml = text.trimStart().startsWith('<') ? parser.parse(text) : undefined;
        } catch {
          xml = undefined;
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, xml });
      });
    });
    req.on('error', reject);
    if (o.body !== undefined) req.write(o.body);
    req.end();
  });
}

export interface CallOptions {
  region?: string;
  method?: 'GET' | 'POST';
  /** Body actually sent (defaults to the signed one). */
  sendBody?: string;
  /** Date used for signing (defaults to now). */
  date?: Date;
  /** Path actually sent (the signature always covers `/`). */
  sendPath?: string;
  /** Extra headers to sign. */
  headers?: Record<string, string>;
  /** Drop the security token header after signing. */
  dropToken?: boolean;
  /** Presign (query auth) instead of the Authorization header; GET only. */
  presign?: boolean;
}

export function amzDate(d: Date): string {
  return d.toISOString().replace(/[:-]|\.\d{3}/g, '');
}

export async function call(sim: CloudSim, service: 'ec2' | 'iam' | 'sts', params: Record<string, string>, creds: Creds, o: CallOptions = {}): Promise<Answer> {
  const u = new URL(sim.url);
  const version = service === 'ec2' ? '2016-11-15' : service === 'iam' ? '2010-05-08' : '2011-06-15';
  const form = new URLSearchParams({ Action: params.Action, Version: version, ...params }).toString();
  const method = o.method ?? (o.presign ? 'GET' : 'POST');
  const headers: Record<string, string> = { ...(o.headers ?? {}) };
  if (o.date) headers['X-Amz-Date'] = amzDate(o.date);
  const opts: aws4.Request & { signQuery?: boolean } = {
    host: u.host,
    path: method === 'GET' ? `/?${form}` : '/',
    method,
    service,
    region: o.region ?? 'us-east-1',
    headers,
    signQuery: o.presign,
  };
  if (method === 'POST') {
    opts.body = form;
    headers['Content-Type'] = 'application/x-www-form-urlencoded; charset=utf-8';
  }
  aws4.sign(opts, creds);
  const sendHeaders = { ...(opts.headers as Record<string, string>) };
  if (o.dropToken) delete sendHeaders['X-Amz-Security-Token'];
  let body = method === 'POST' ? form : undefined;
  if (o.sendBody !== undefined) {
    body = o.sendBody;
    sendHeaders['Content-Length'] = String(Buffer.byteLength(body));
  }
  let path = opts.path!;
  if (o.sendPath) path = o.sendPath + path.slice(1);
  return raw(sim, { method, path, headers: sendHeaders, body });
}

export async function imds(sim: CloudSim, path: string, token?: string): Promise<Answer> {
  const headers: Record<string, string> = {};
  if (token) headers['X-aws-ec2-metadata-token'] = token;
  return raw(sim, { method: 'GET', path, headers });
}

export async function imdsToken(sim: CloudSim, ttl = 300): Promise<string> {
  const a = await raw(sim, { method: 'PUT', path: '/latest/api/token', headers: { 'X-aws-ec2-metadata-token-ttl-seconds': String(ttl) } });
  if (a.status !== 200) throw new Error(`token: ${a.status}`);
  return a.text;
}

export function rootCreds(sim: CloudSim): Creds {
  return { accessKeyId: sim.rootCredentials.accessKeyId, secretAccessKey: sim.rootCredentials.secretAccessKey };
}
