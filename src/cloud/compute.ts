/** The compute (EC2-compatible) API: DescribeInstances, answered as typed instances. */
import type { CredentialSource } from './credentials.js';
import { computeEndpoint } from './endpoints.js';
import { sendQuery, type TransportOptions } from './signed-request.js';
import { list, text, type XmlNode } from './xml.js';

export const COMPUTE_API_VERSION = '2016-11-15';

export interface CloudInstance {
  instanceId: string;
  imageId?: string;
  /** pending | running | shutting-down | terminated | stopping | stopped */
  state?: string;
  subnetId?: string;
  vpcId?: string;
  iamInstanceProfileArn?: string;
  tags: Record<string, string>;
  /** The provider reports launchTime; the identity document calls the same instant pendingTime. */
  launchTime?: string;
  pendingTime?: string;
  privateIpAddress?: string;
  /** The region the client asked, which is where the instance lives. */
  region: string;
  /** The reservation's owner. */
  accountId?: string;
}

export interface ComputeClientOptions {
  region: string;
  credentials: CredentialSource;
  /** config/client `endpoint`. */
  endpoint?: string;
  transport?: TransportOptions;
}

export interface ComputeClient {
  readonly region: string;
  readonly endpoint: string;
  describeInstances(instanceIds: string[]): Promise<CloudInstance[]>;
}

export function computeClient(opts: ComputeClientOptions): ComputeClient {
  const ep = computeEndpoint(opts.region, opts.endpoint);
  return {
    region: opts.region,
    endpoint: ep.url,
    async describeInstances(instanceIds) {
      const out: CloudInstance[] = [];
      let nextToken: string | undefined;
      do {
        const params: Record<string, string | undefined> = { NextToken: nextToken };
        instanceIds.forEach((id, i) => (params[`InstanceId.${i + 1}`] = id));
        const { doc } = await sendQuery(
          { endpoint: ep.url, service: 'ec2', region: ep.region, action: 'DescribeInstances', version: COMPUTE_API_VERSION, params, credentials: opts.credentials },
          opts.transport,
        );
        const root = doc.DescribeInstancesResponse;
        out.push(...parseReservations(root, opts.region));
        nextToken = text(root, 'nextToken') || undefined;
      } while (nextToken);
      return out;
    },
  };
}

export function parseReservations(root: XmlNode[string] | undefined, region: string): CloudInstance[] {
  const out: CloudInstance[] = [];
  for (const reservation of list(root, 'reservationSet', 'item')) {
    const accountId = text(reservation, 'ownerId');
    for (const inst of list(reservation, 'instancesSet', 'item')) {
      const tags: Record<string, string> = {};
      for (const t of list(inst, 'tagSet', 'item')) {
        const key = text(t, 'key');
        if (key !== undefined) tags[key] = text(t, 'value') ?? '';
      }
      const launchTime = text(inst, 'launchTime');
      out.push({
        instanceId: text(inst, 'instanceId') ?? '',
        imageId: text(inst, 'imageId'),
        state: text(inst, 'instanceState', 'name'),
        subnetId: text(inst, 'subnetId'),
        vpcId: text(inst, 'vpcId'),
        iamInstanceProfileArn: text(inst, 'iamInstanceProfile', 'arn'),
        tags,
        launchTime,
        pendingTime: launchTime,
        privateIpAddress: text(inst, 'privateIpAddress'),
        region,
        accountId,
      });
    }
  }
  return out;
}
