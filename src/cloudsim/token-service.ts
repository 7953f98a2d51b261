/** The token service (STS) actions: who a caller is, and temporary credentials for a role. */
import { ApiError } from './errors.js';
import { required, type Action } from './query.js';
import { isoNoMs, issueSession, roleByArn, type KeyRecord, type SimState } from './state.js';
import { el } from './xml.js';

/** The principal a verified key belongs to: an IAM user, or a role session for temporary credentials. */
function callerIdentity(s: SimState, k: KeyRecord): { arn: string; userId: string; account: string } {
  if (k.userName) {
    const u = s.users.get(`${k.accountId}/${k.userName}`)!;
    return { arn: u.arn, userId: u.userId, account: k.accountId };
  }
  const r = s.roles.get(`${k.accountId}/${k.roleName}`)!;
  return { arn: `arn:aws:sts::${k.accountId}:assumed-role/${r.name}/${k.sessionName}`, userId: `${r.roleId}:${k.sessionName}`, account: k.accountId };
}

export const tokenServiceActions: Record<string, Action> = {
  GetCallerIdentity: (s, call) => {
    const id = callerIdentity(s, call.k);
    return [el('Arn', id.arn), el('UserId', id.userId), el('Account', id.account)];
  },
  AssumeRole: (s, call) => {
    const roleArn = required(call, 'RoleArn');
    const session = required(call, 'RoleSessionName');
    if (!/^[\w+=,.@-]{2,64}$/.test(session))
      throw new ApiError(
        'ValidationError',
        `1 validation error detected: Value '${session}' at 'roleSessionName' failed to satisfy constraint: Member must satisfy regular expression pattern: [\\w+=,.@-]*`,
        400,
      );
    const caller = callerIdentity(s, call.k);
    const role = roleByArn(s, roleArn);
    if (!role) throw new ApiError('AccessDenied', `User: ${caller.arn} is not authorized to perform: sts:AssumeRole on resource: ${roleArn}`, 403);
    const dur = call.params.DurationSeconds ? Number(call.params.DurationSeconds) : 3600;
    if (!Number.isInteger(dur) || dur < 900)
      throw new ApiError('ValidationError', `1 validation error detected: Value '${call.params.DurationSeconds}' at 'durationSeconds' failed to satisfy constraint: Member must have value greater than or equal to 900`, 400);
    const max = call.k.sessionToken ? 3600 : role.maxSessionDuration; // role chaining is limited to one hour
    if (dur > max) throw new ApiError('ValidationError', 'The requested DurationSeconds exceeds the MaxSessionDuration set for this role.', 400);
    const k = issueSession(s, role, session, dur);
    return [
      el('AssumedRoleUser', [el('AssumedRoleId', `${role.roleId}:${session}`), el('Arn', `arn:aws:sts::${role.accountId}:assumed-role/${role.name}/${session}`)]),
      el('Credentials', [el('AccessKeyId', k.accessKeyId), el('SecretAccessKey', k.secret), el('SessionToken', k.sessionToken!), el('Expiration', isoNoMs(k.expiration!))]),
    ];
  },
};
