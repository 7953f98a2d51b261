/**
 * /v1/client/allocation/:alloc_id/exec: a command in a running task, over a WebSocket. The upgrade is
 * handled by upgrade.ts; a plain GET here is told what it lacks.
 */
import { UserError } from '../../shared/errors.js';
import { execLaunch, execTarget } from './exec-target.js';
import { defineRoute } from './route.js';
import type { WsRouteDef } from './ws-route.js';

const PATH = '/v1/client/allocation/:alloc_id/exec';

/** The command as the query carries it: a JSON array of strings, at least the program. */
export function parseCommand(text: string): string[] {
  if (text === '') throw new UserError('command is not present');
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    throw new UserError(`command must be a JSON array of strings: ${(err as Error).message}`);
  }
  if (!Array.isArray(parsed) || !parsed.every((s) => typeof s === 'string')) throw new UserError('command must be a JSON array of strings, such as ["/bin/sh","-c","ls"]');
  if (parsed.length === 0 || parsed[0] === '') throw new UserError('command is not present');
  return parsed;
}

export const allocExecWsRoute: WsRouteDef = {
  path: PATH,
  synopsis: 'Run a command inside a running task of an allocation, over a WebSocket.',
  query: {
    command: { type: 'string', description: 'The command and its arguments as a JSON array of strings, e.g. ["/bin/sh","-c","ls"].', required: true },
    task: { type: 'string', description: 'The task to run the command in.', required: true },
    tty: { type: 'bool', description: 'Run the command under a pseudo-terminal.' },
    ws_handshake: { type: 'bool', description: 'The first frame carries the token: {"version":1,"auth_token":"..."}.' },
  },
  allocId: (params) => params.alloc_id,
  prepare: async (req) => {
    const target = execTarget(req, req.params.alloc_id, req.query.get<string>('task'));
    return execLaunch(req, target, parseCommand(req.query.get<string>('command')), req.query.get<boolean>('tty'));
  },
};

/** A GET that is not a WebSocket upgrade, answered after the usual token and ACL checks. */
export function needsUpgrade(path: string, synopsis: string) {
  return defineRoute({
    methods: ['GET'],
    path,
    acl: { namespace: ['alloc-exec'] },
    synopsis,
    handler: async () => {
      throw new UserError('this endpoint speaks WebSocket: send the request with "Connection: Upgrade" and "Upgrade: websocket"');
    },
  });
}

export const allocExecRoutes = [needsUpgrade(PATH, allocExecWsRoute.synopsis)];
