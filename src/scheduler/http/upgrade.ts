/**
 * WebSocket upgrades on the API's port (the `ws` package, noServer): exec and job actions, and node
 * tunnels (node-tunnel-endpoint.ts). The token comes in a header, or, with `ws_handshake=true`, in the
 * first frame as `{"version":1,"auth_token":"…"}` (how Nomad's own client and browsers send it).
 * Refusals are HTTP answers while the request is still HTTP, and close frames once it is a WebSocket:
 * 1008 for the caller's mistakes (auth included), 1011 for ours, each with the message as its reason. An
 * exec for an allocation whose node another server of the cluster reaches is passed to that server whole.
 */
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import { NotFound, PermissionDenied, UserError } from '../../shared/errors.js';
import { uuid } from '../../shared/ids.js';
import { FieldData } from '../../framework/schema/field-data.js';
import type { Fields } from '../../framework/schema/field-schema.js';
import { clientCertVerified } from '../../framework/http/listener.js';
import { classify, refuseSocket } from '../../framework/http/respond.js';
import { tokenFromHeaders } from '../../framework/http/token-header.js';
import type { RawRequest } from '../../framework/http/types.js';
import type { SchedulerContext } from '../context.js';
import type { TokenCaller } from '../../secrets/token/caller.js';
import { authenticate } from './caller.js';
import { Inbox, closeReason, runExecStream } from '../wire/exec-stream.js';
import { CLOSE_INTERNAL, CLOSE_POLICY } from '../../shared/ws-close.js';
import { COMMON_QUERY } from './pipeline.js';
import { matchRoute } from './route.js';
import type { ExecLaunch } from '../wire/exec.js';
import type { WsRequest, WsRouteDef } from './ws-route.js';
import { createTunnelEndpoint, tunnelTarget } from './node-tunnel-endpoint.js';
import { nodeServerFor } from './node-forward.js';
import { execSessions } from '../telemetry.js';

/** How long the first frame may take when it must carry the token. */
const HANDSHAKE_TIMEOUT_MS = 10_000;
/** Input frames larger than this close the session (1009); clients send input in small pieces. */
const MAX_FRAME_BYTES = 4 * 1024 * 1024;

interface Upgrade {
  route: WsRouteDef;
  params: Record<string, string>;
  raw: RawRequest;
}

/** Answers the upgrade request with an HTTP error, as the scheduler API words them (plain text). */
const refuse = (socket: Duplex, status: number, message: string): void => refuseSocket(socket, status, message, { 'x-svc-request-id': uuid() });

function closeWith(ws: WebSocket, err: unknown, services: SchedulerContext, what: string): void {
  const { status, message, internal } = classify(err);
  if (internal) services.log.error(`${what}: ${(err as Error)?.stack ?? message}`);
  if (ws.readyState === ws.OPEN) ws.close(status >= 500 ? CLOSE_INTERNAL : CLOSE_POLICY, closeReason(message));
}

/** The upgrade request as every other request reaches a handler: its URL parsed once, no body. */
function rawUpgrade(req: IncomingMessage): RawRequest {
  const url = new URL(req.url ?? '/', 'http://upgrade');
  return {
    method: req.method ?? 'GET',
    path: url.pathname,
    query: url.searchParams,
    headers: req.headers,
    body: Buffer.alloc(0),
    remoteAddress: req.socket.remoteAddress ?? '',
    clientCertVerified: clientCertVerified(req.socket),
  };
}

function parse(raw: RawRequest, routes: WsRouteDef[]): Upgrade | undefined {
  let parts: string[];
  try {
    parts = raw.path.split('/').slice(1).map(decodeURIComponent);
  } catch {
    return undefined;
  }
  for (const route of routes) {
    const params = matchRoute(route.path, parts);
    if (params) return { route, params, raw };
  }
  return undefined;
}

/** The query checked against the route's schema: what the handler reads, and `ws_handshake`. */
function queryOf(up: Upgrade): FieldData {
  const schema: Fields = { namespace: COMMON_QUERY.namespace, region: COMMON_QUERY.region, ...up.route.query };
  const values: Record<string, unknown> = {};
  for (const [k, v] of up.raw.query) if (schema[k]) values[k] = v;
  return new FieldData(values, schema, 'read');
}

async function authorize(raw: RawRequest, services: SchedulerContext): Promise<TokenCaller> {
  const caller = await authenticate(raw, services);
  await services.tokens.use(caller.token);
  return caller;
}

/** The first frame of a handshake session: the token, checked against one sent in a header too. */
async function handshakeToken(inbox: Inbox, headerToken: string | undefined): Promise<string> {
  const first = await inbox.next(HANDSHAKE_TIMEOUT_MS);
  if (!first) throw new PermissionDenied('no handshake frame: with ws_handshake=true the first frame must be {"version":1,"auth_token":"<token>"}');
  let frame: { version?: unknown; auth_token?: unknown };
  try {
    frame = JSON.parse(first.data.toString()) as typeof frame;
  } catch {
    throw new UserError('the handshake frame is not JSON: send {"version":1,"auth_token":"<token>"}');
  }
  if (frame?.version !== 1) throw new UserError(`unsupported handshake version ${JSON.stringify(frame?.version)}: only version 1 is spoken`);
  const token = typeof frame.auth_token === 'string' ? frame.auth_token : '';
  if (headerToken && token && headerToken !== token) throw new PermissionDenied('the handshake token differs from the token in the request header');
  return token || headerToken || '';
}

export function createUpgradeHandler(services: SchedulerContext, routes: WsRouteDef[]) {
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_FRAME_BYTES, perMessageDeflate: false });
  const sessions = new Set<Promise<void>>();
  /** upgrades handed to the server that reaches the node: byte pipes this server does not speak in */
  const relayed = new Set<Duplex>();
  const tunnels = createTunnelEndpoint(services);

  const track = (p: Promise<void>) => {
    sessions.add(p);
    execSessions.inc();
    void p.finally(() => {
      sessions.delete(p);
      execSessions.dec();
    });
  };

  /** Runs the session; without `prepared` (ws_handshake), authenticates and checks it first. */
  async function serve(ws: WebSocket, inbox: Inbox, up: Upgrade, query: FieldData, prepared: ExecLaunch | undefined): Promise<void> {
    const what = `${up.raw.method} ${up.raw.path}`;
    try {
      let launch = prepared;
      if (!launch) {
        const token = await handshakeToken(inbox, tokenFromHeaders(up.raw.headers));
        const caller = await authorize({ ...up.raw, headers: { 'x-svc-token': token } }, services);
        launch = await up.route.prepare(wsRequest(up, query, caller));
      }
      await runExecStream(ws, inbox, launch, { shutdown: services.shutdown, heartbeatMs: services.config.execHeartbeatMs });
    } catch (err) {
      closeWith(ws, err, services, what);
    }
  }

  function wsRequest(up: Upgrade, query: FieldData, caller: TokenCaller): WsRequest {
    const namespace = query.get<string>('namespace') || 'default';
    return { params: up.params, query, namespace, caller, services };
  }

  async function onUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
    socket.on('error', () => undefined);
    if (services.stopping) return refuse(socket, 503, 'server shutting down');
    const raw = rawUpgrade(req);
    const tunnel = tunnelTarget(raw.path);
    if (tunnel) return tunnels.handle(req, raw, socket, head, tunnel);
    const up = parse(raw, routes);
    if (!up) {
      // As everywhere: who may not ask learns nothing about which paths exist.
      await authenticate(raw, services);
      throw new NotFound(`no WebSocket endpoint at ${raw.path}`);
    }
    if (req.method !== 'GET') throw new UserError('a WebSocket upgrade is a GET request');
    if (String(req.headers.upgrade ?? '').toLowerCase() !== 'websocket') throw new UserError('only "Upgrade: websocket" is spoken here');
    // The server that reaches the allocation's node checks who asks, as it would had the upgrade come to it.
    const elsewhere = nodeServerFor(services, up.route.allocId(up.params, up.raw.query), req.headers);
    if (elsewhere) {
      relayed.add(socket);
      socket.once('close', () => relayed.delete(socket));
      return services.forwardToNode.upgrade(req, socket, head, elsewhere);
    }
    const query = queryOf(up);
    const handshake = query.get<boolean>('ws_handshake');
    // With a header token everything is checked while a refusal can still be an HTTP status.
    const launch = handshake ? undefined : await up.route.prepare(wsRequest(up, query, await authorize(up.raw, services)));
    wss.handleUpgrade(req, socket, head, (ws) => {
      const inbox = new Inbox(ws);
      track(serve(ws, inbox, up, query, launch));
    });
  }

  return {
    handle(req: IncomingMessage, socket: Duplex, head: Buffer): void {
      onUpgrade(req, socket, head).catch((err: unknown) => {
        const { status, message, internal } = classify(err);
        if (internal) services.log.error(`upgrade ${req.url}: ${(err as Error)?.stack ?? message}`);
        if (!socket.destroyed) refuse(socket, status, message);
      });
    },
    /**
     * Sessions end on services.shutdown; this waits for them, then cuts sockets still closing, relayed
     * sessions (the other server ends its side when its socket goes), and the node tunnels.
     */
    async close(): Promise<void> {
      await Promise.allSettled([...sessions]);
      for (const socket of relayed) socket.destroy();
      tunnels.close();
      for (const ws of wss.clients) ws.terminate();
      wss.close();
    },
  };
}
