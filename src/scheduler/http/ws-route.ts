/**
 * The scheduler's WebSocket endpoints (exec and job actions). Their declarations live beside the ordinary
 * routes; upgrade.ts authenticates the upgrade (token header, or the first frame with ws_handshake) and
 * then calls `prepare`, which checks everything a refusal can be made of. A refusal found before the
 * upgrade is an HTTP error; after it, a close frame (src/scheduler/wire/exec-stream.ts).
 */
import type { Fields } from '../../framework/schema/field-schema.js';
import type { FieldData } from '../../framework/schema/field-data.js';
import type { TokenCaller } from '../../secrets/token/caller.js';
import type { SchedulerContext } from '../context.js';
import type { ExecLaunch } from '../wire/exec.js';

export interface WsRequest {
  params: Record<string, string>;
  query: FieldData;
  namespace: string;
  caller: TokenCaller;
  services: SchedulerContext;
}

export interface WsRouteDef {
  /** as RouteDef.path: `:name` one segment, `*name` one or more */
  path: string;
  synopsis: string;
  /** the query parameters besides the common ones (namespace, region) */
  query: Fields;
  /** the allocation the session runs in, as the request names it: its node is where the session runs */
  allocId(params: Record<string, string>, query: URLSearchParams): string;
  prepare(req: WsRequest): Promise<ExecLaunch>;
}
