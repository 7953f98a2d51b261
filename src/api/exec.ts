/**
 * Exec and job actions over WebSocket (Nomad's wire protocol): the URLs to upgrade, the frames the client
 * sends, the frames it reads, and the job's action list. No WebSocket code here: src/cli/exec/session.ts
 * drives the connection, so this module stays cheap for anything that only builds a URL.
 */
import type { ApiClient } from './http/client.js';
import type { ExecOutputFrame } from '../scheduler/wire/exec-stream.js';

export type { ExecOutputFrame } from '../scheduler/wire/exec-stream.js';

export interface ExecTarget {
  /** the full allocation UUID: the endpoint does not resolve prefixes */
  allocId: string;
  task: string;
  tty: boolean;
  /** the allocation's namespace, so the server looks in the right one whatever -namespace said */
  namespace?: string;
}

/** A ws:// or wss:// URL for the client's address: the same host, the scheme the HTTP one implies. */
function socketUrl(client: ApiClient, path: string, query: Record<string, string | undefined>): URL {
  const url = client.url(path, { region: client.config.region, ...query, namespace: query.namespace ?? client.config.namespace });
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  return url;
}

/**
 * GET /v1/client/allocation/<id>/exec. `ws_handshake=true` says the first frame carries the token, which
 * is how Nomad's web UI authenticates (a browser cannot set headers on a WebSocket).
 */
export function execUrl(client: ApiClient, target: ExecTarget, command: string[]): URL {
  return socketUrl(client, `/v1/client/allocation/${encodeURIComponent(target.allocId)}/exec`, {
    command: JSON.stringify(command),
    task: target.task,
    tty: String(target.tty),
    ws_handshake: 'true',
    namespace: target.namespace,
  });
}

/** GET /v1/job/<id>/action: runs the action the job declares for the task, in the given allocation. */
export function actionUrl(client: ApiClient, jobId: string, action: string, target: ExecTarget & { group?: string }): URL {
  return socketUrl(client, `/v1/job/${encodeURIComponent(jobId)}/action`, {
    action,
    allocID: target.allocId,
    group: target.group,
    task: target.task,
    tty: String(target.tty),
    ws_handshake: 'true',
    namespace: target.namespace,
  });
}

/** The first frame with ws_handshake=true. An empty token is sent as such: the server then refuses it. */
export const handshakeFrame = (token: string | undefined): string => JSON.stringify({ version: 1, auth_token: token ?? '' });

export const stdinFrame = (data: Buffer): string => JSON.stringify({ stdin: { data: data.toString('base64') } });

/** stdin reached its end: the command sees EOF. */
export const STDIN_CLOSE_FRAME = JSON.stringify({ stdin: { close: true } });

export const ttySizeFrame = (rows: number, cols: number): string => JSON.stringify({ tty_size: { height: rows, width: cols } });

/** An empty frame keeps proxies (and the server's idle checks) from dropping a quiet session. */
export const HEARTBEAT_FRAME = '{}';

/** The exit code in an exit frame: 0 when omitted; 128 + the signal when only a signal is given. */
export function exitCodeOf(frame: ExecOutputFrame): number {
  const result = frame.result ?? {};
  if (typeof result.exit_code === 'number') return result.exit_code;
  if (typeof result.signal === 'number' && result.signal > 0) return 128 + result.signal;
  return 0;
}

/** One entry of GET /v1/job/<id>/actions. */
export interface JobAction {
  Name: string;
  Command: string;
  Args: string[] | null;
  TaskName: string;
  TaskGroupName: string;
}

export async function listJobActions(client: ApiClient, jobId: string, namespace?: string): Promise<JobAction[]> {
  const query = namespace ? { namespace } : {};
  return (await client.scheduler<JobAction[] | null>('GET', `/v1/job/${encodeURIComponent(jobId)}/actions`, { query })).body ?? [];
}
