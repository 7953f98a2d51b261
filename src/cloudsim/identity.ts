/** The identity (IAM) actions: users, roles, instance profiles and a user's access keys. */
import { ApiError } from './errors.js';
import { paginate, required, type Action, type Call } from './query.js';
import { isoNoMs, newAccessKey, type RoleRec, type SimState, type UserRec } from './state.js';
import { el } from './xml.js';

const userXml = (u: UserRec) => [el('Path', u.path), el('UserName', u.name), el('UserId', u.userId), el('Arn', u.arn), el('CreateDate', isoNoMs(u.createDate))];
const roleXml = (r: RoleRec) => [
  el('Path', r.path),
  el('RoleName', r.name),
  el('RoleId', r.roleId),
  el('Arn', r.arn),
  el('CreateDate', isoNoMs(r.createDate)),
  el(
    'AssumeRolePolicyDocument',
    encodeURIComponent(JSON.stringify({ Version: '2012-10-17', Statement: [{ Effect: 'Allow', Principal: { Service: 'ec2.amazonaws.com' }, Action: 'sts:AssumeRole' }] })),
  ),
  el('MaxSessionDuration', r.maxSessionDuration),
];

/** The user a call names in UserName, or the calling user when it names none. */
function targetUser(s: SimState, call: Call): UserRec {
  const name = call.params.UserName;
  if (!name) {
    if (!call.k.userName) throw new ApiError('ValidationError', 'Must specify userName when calling with non-User credentials', 400);
    return s.users.get(`${call.k.accountId}/${call.k.userName}`)!;
  }
  const u = s.users.get(`${call.k.accountId}/${name}`);
  if (!u) throw new ApiError('NoSuchEntity', `The user with name ${name} cannot be found.`, 404);
  return u;
}

export const identityActions: Record<string, Action> = {
  GetUser: (s, call) => [el('User', userXml(targetUser(s, call)))],
  GetRole: (s, call) => {
    const name = required(call, 'RoleName');
    const r = s.roles.get(`${call.k.accountId}/${name}`);
    if (!r) throw new ApiError('NoSuchEntity', `The role with name ${name} cannot be found.`, 404);
    return [el('Role', roleXml(r))];
  },
  GetInstanceProfile: (s, call) => {
    const name = required(call, 'InstanceProfileName');
    const p = s.profiles.get(`${call.k.accountId}/${name}`);
    if (!p) throw new ApiError('NoSuchEntity', `Instance Profile ${name} cannot be found.`, 404);
    return [
      el('InstanceProfile', [
        el('Path', p.path),
        el('InstanceProfileName', p.name),
        el('InstanceProfileId', p.id),
        el('Arn', p.arn),
        el('CreateDate', isoNoMs(p.createDate)),
        el(
          'Roles',
          p.roleNames.map((rn) => s.roles.get(`${p.accountId}/${rn}`)).filter((r): r is RoleRec => !!r).map((r) => el('member', roleXml(r))),
        ),
      ]),
    ];
  },
  ListAccessKeys: (s, call) => {
    const u = targetUser(s, call);
    const all = [...s.keys.values()].filter((k) => k.userName === u.name && k.accountId === u.accountId);
    const { page, next } = paginate(s, all, call.params.Marker, 'Marker');
    return [
      el(
        'AccessKeyMetadata',
        page.map((k) => el('member', [el('UserName', u.name), el('AccessKeyId', k.accessKeyId), el('Status', k.status), el('CreateDate', isoNoMs(k.createDate))])),
      ),
      el('IsTruncated', next ? 'true' : 'false'),
      ...(next ? [el('Marker', next)] : []),
    ];
  },
  CreateAccessKey: (s, call) => {
    const u = targetUser(s, call);
    const count = [...s.keys.values()].filter((k) => k.userName === u.name && k.accountId === u.accountId).length;
    if (count >= 2) throw new ApiError('LimitExceeded', 'Cannot exceed quota for AccessKeysPerUser: 2', 409);
    const k = newAccessKey(s, u);
    return [
      el('AccessKey', [
        el('UserName', u.name),
        el('AccessKeyId', k.accessKeyId),
        el('Status', 'Active'),
        el('SecretAccessKey', k.secret),
        el('CreateDate', isoNoMs(k.createDate)),
      ]),
    ];
  },
  DeleteAccessKey: (s, call) => {
    const id = required(call, 'AccessKeyId');
    const u = targetUser(s, call);
    const k = s.keys.get(id);
    if (!k || k.userName !== u.name || k.accountId !== u.accountId) throw new ApiError('NoSuchEntity', `The Access Key with id ${id} cannot be found.`, 404);
    s.keys.delete(id);
    return null;
  },
};
