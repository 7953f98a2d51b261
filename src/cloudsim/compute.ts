/** The compute (EC2) action: DescribeInstances, the caller's account and the signature's region only. */
import { ApiError } from './errors.js';
import { paginate, type Call } from './query.js';
import type { InstanceStateName, SimInstance, SimState } from './state.js';
import { el, NS, xmlDoc, type XmlNode } from './xml.js';

const STATE_CODES: Record<InstanceStateName, number> = {
  pending: 0,
  running: 16,
  'shutting-down': 32,
  terminated: 48,
  stopping: 64,
  stopped: 80,
};

export function describeInstances(s: SimState, call: Call): string {
  const ids: string[] = [];
  for (let i = 1; call.params[`InstanceId.${i}`] !== undefined; i++) ids.push(call.params[`InstanceId.${i}`]);
  for (const id of ids)
    if (!/^i-([0-9a-f]{8}|[0-9a-f]{17})$/.test(id)) throw new ApiError('InvalidInstanceID.Malformed', `Invalid id: "${id}"`, 400);
  const visible = (i: SimInstance) => i.accountId === call.k.accountId && i.region === call.auth.region;
  let found: SimInstance[];
  if (ids.length) {
    const missing = ids.filter((id) => !s.instances.has(id) || !visible(s.instances.get(id)!));
    if (missing.length)
      throw new ApiError(
        'InvalidInstanceID.NotFound',
        missing.length === 1 ? `The instance ID '${missing[0]}' does not exist` : `The instance IDs '${missing.join(', ')}' do not exist`,
        400,
      );
    found = [...new Set(ids)].map((id) => s.instances.get(id)!);
  } else {
    found = [...s.instances.values()].filter(visible);
  }
  const { page, next } = paginate(s, found, call.params.NextToken, 'NextToken');
  const items = page.map((i) => {
    const prof = i.instanceProfile ? s.profiles.get(`${i.accountId}/${i.instanceProfile}`) : undefined;
    const inst: XmlNode[] = [
      el('instanceId', i.instanceId),
      el('imageId', i.imageId),
      el('instanceState', [el('code', STATE_CODES[i.state]), el('name', i.state)]),
      el('privateDnsName', i.privateDnsName),
      el('dnsName'),
      el('reason'),
      el('amiLaunchIndex', 0),
      el('productCodes'),
      el('instanceType', i.instanceType),
      el('launchTime', i.pendingTime.replace(/Z$/, '.000Z')),
      el('placement', [el('availabilityZone', i.availabilityZone), el('groupName'), el('tenancy', 'default')]),
      el('monitoring', [el('state', 'disabled')]),
      el('subnetId', i.subnetId),
      el('vpcId', i.vpcId),
      el('privateIpAddress', i.privateIp),
      el('architecture', i.architecture),
      el('rootDeviceType', 'ebs'),
    ];
    if (prof) inst.push(el('iamInstanceProfile', [el('arn', prof.arn), el('id', prof.id)]));
    const tags = Object.entries(i.tags);
    if (tags.length) inst.push(el('tagSet', tags.map(([key, value]) => el('item', [el('key', key), el('value', value)]))));
    return el('item', [
      el('reservationId', i.reservationId),
      el('ownerId', i.accountId),
      el('groupSet'),
      el('instancesSet', [el('item', inst)]),
    ]);
  });
  return xmlDoc(
    el('DescribeInstancesResponse', [el('requestId', call.requestId), el('reservationSet', items), ...(next ? [el('nextToken', next)] : [])], { xmlns: NS.ec2 }),
    true,
  );
}
