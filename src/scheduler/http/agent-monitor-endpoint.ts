/**
 * GET /v1/agent/monitor: the server's log lines as they are logged, as Nomad's agent monitor streams them:
 * StreamFrames (`{"Data":"<base64 of one or more lines>"}`, `{}` as a heartbeat) or, with plain=true,
 * the lines alone, until the client goes away or the server stops. `log_level` picks the lowest level
 * sent, whatever the server's own (debug lines are sent to a debug monitor of an info server);
 * `log_json` sends each line as hclog's JSON. It needs Nomad's `agent:read`.
 */
import { UserError } from '../../shared/errors.js';
import { LOG_LEVELS, formatLogLine, jsonLogLine, type LogLevel } from '../../shared/log.js';
import { encodeFrame, HEARTBEAT_MS } from '../wire/stream-frames.js';
import { defineRoute } from './route.js';

/** Lines kept for a client that reads slower than the server logs; past it the oldest are dropped and counted. */
const BUFFER_LINES = 512;

function parseLevel(text: string): LogLevel {
  const level = (text === '' ? 'info' : text.toLowerCase()) as LogLevel;
  if (!LOG_LEVELS.includes(level)) throw new UserError(`Unknown log level: ${text}`);
  return level;
}

export const agentMonitorRoute = defineRoute({
  methods: ['GET'],
  path: '/v1/agent/monitor',
  acl: { agent: 'read' },
  synopsis: "Stream the server's log lines, from the given level up, as frames or plain text.",
  query: {
    log_level: { type: 'string', description: 'The lowest level sent: trace, debug, info (default), warn or error.' },
    log_json: { type: 'bool', description: 'Send each line as JSON (hclog\'s fields).' },
    plain: { type: 'bool', description: 'Send the lines alone instead of JSON frames.' },
  },
  handler: async (req) => {
    const level = parseLevel(req.query.get<string>('log_level') ?? '');
    const render = req.query.get<boolean>('log_json') ? jsonLogLine : formatLogLine;
    const plain = req.query.get<boolean>('plain');
    const log = req.services.log;
    return {
      body: undefined,
      headers: { 'content-type': plain ? 'text/plain' : 'application/json' },
      stream: async (write, signal) => {
        let pending: string[] = [];
        let dropped = 0;
        let wake: (() => void) | undefined;
        const unsubscribe = log.subscribe(level, (entry) => {
          if (pending.length >= BUFFER_LINES) {
            pending.shift();
            dropped++;
          }
          pending.push(render(entry));
          wake?.();
        });
        const onAbort = () => wake?.();
        signal.addEventListener('abort', onAbort, { once: true });
        // Resolves on the next entry, the client going away, or after a heartbeat's time with nothing logged.
        const woken = () =>
          new Promise<void>((resolve) => {
            const timer = setTimeout(resolve, HEARTBEAT_MS);
            wake = () => {
              clearTimeout(timer);
              resolve();
            };
          });
        try {
          while (!signal.aborted) {
            if (pending.length === 0) {
              await woken();
              wake = undefined;
              if (pending.length === 0 && !signal.aborted && !plain) await write('{}');
              continue;
            }
            const lines = pending;
            pending = [];
            if (dropped > 0) {
              lines.unshift(render({ time: new Date(), level: 'warn', component: 'agent.monitor', message: `Monitor dropped ${dropped} logs during monitor request` }));
              dropped = 0;
            }
            const data = Buffer.from(lines.join(''));
            await write(plain ? data : encodeFrame({ Data: data }));
          }
        } finally {
          unsubscribe();
          signal.removeEventListener('abort', onAbort);
        }
      },
    };
  },
});
