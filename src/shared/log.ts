/**
 * A small levelled logger for the server. Lines go to stderr as `<time> [LEVEL] <component>: <message>:
 * key=value ...`, or (`log_json`) one JSON object a line in hclog's shape, as Nomad and Vault write theirs.
 */
export type LogLevel = 'trace' | 'debug' | 'info' | 'warn' | 'error';

const ORDER: Record<LogLevel, number> = { trace: 0, debug: 1, info: 2, warn: 3, error: 4 };
export const LOG_LEVELS = Object.keys(ORDER) as LogLevel[];

/** One logged event, as subscribers receive it. */
export interface LogEntry {
  time: Date;
  level: LogLevel;
  /** the dotted name of the logger (`token`, `scheduler.broker`); '' for the root */
  component: string;
  message: string;
  /** key/value pairs that go with the message (hclog's), written after it or as fields of the JSON line */
  fields?: LogFields;
}

export type LogFields = Readonly<Record<string, string | number | boolean>>;

export interface Logger {
  level: LogLevel;
  trace(msg: string, fields?: LogFields): void;
  debug(msg: string, fields?: LogFields): void;
  info(msg: string, fields?: LogFields): void;
  warn(msg: string, fields?: LogFields): void;
  error(msg: string, fields?: LogFields): void;
  /** Whether a line at `level` goes anywhere: work spent only on a message (formatting a request's figures) can be skipped. */
  enabled(level: LogLevel): boolean;
  named(component: string): Logger;
  /**
   * Calls `listener` with every entry at `level` or above, whatever the logger's own level, from this
   * logger and every logger named from the same root (`svc monitor`). Answers the unsubscribe.
   */
  subscribe(level: LogLevel, listener: (entry: LogEntry) => void): () => void;
}

/**
 * The subscribers of a root logger and its named children. `lowest` is the lowest level any of them
 * asks for (Infinity when there are none), so a logger with nobody listening pays one comparison.
 */
class LogHub {
  private listeners = new Set<{ order: number; listener: (entry: LogEntry) => void }>();
  lowest = Infinity;

  add(level: LogLevel, listener: (entry: LogEntry) => void): () => void {
    const sub = { order: ORDER[level], listener };
    this.listeners.add(sub);
    this.lowest = Math.min(this.lowest, sub.order);
    return () => {
      this.listeners.delete(sub);
      this.lowest = Math.min(Infinity, ...[...this.listeners].map((s) => s.order));
    };
  }

  publish(entry: LogEntry): void {
    const order = ORDER[entry.level];
    for (const sub of this.listeners) {
      // A listener that throws must not stop the logging call, nor the other listeners.
      try {
        if (order >= sub.order) sub.listener(entry);
      } catch {
        continue;
      }
    }
  }
}

/** A value as hclog's text format writes it: quoted when it holds a space, a quote or an equals sign. */
function textValue(v: string | number | boolean): string {
  const text = String(v);
  return text === '' || /[\s"=]/.test(text) ? JSON.stringify(text) : text;
}

/** The line a log entry is written as: `<time> [LEVEL] <component>: <message>[: key=value ...]`. */
export function formatLogLine(e: LogEntry): string {
  const pairs = e.fields ? Object.entries(e.fields).map(([k, v]) => `${k}=${textValue(v)}`) : [];
  return `${e.time.toISOString()} [${e.level.toUpperCase()}] ${e.component ? `${e.component}: ` : ''}${e.message}${pairs.length ? `: ${pairs.join(' ')}` : ''}\n`;
}

/**
 * hclog's JSON line: `@level`, `@message`, `@module` (when named), `@timestamp`, then the entry's fields;
 * a field named as one of those four cannot replace it.
 */
export function jsonLogLine(e: LogEntry): string {
  return `${JSON.stringify({ ...e.fields, '@level': e.level, '@message': e.message, ...(e.component ? { '@module': e.component } : {}), '@timestamp': e.time.toISOString() })}\n`;
}

export interface LoggerOptions {
  /** where written lines go (default: stderr) */
  write?: (line: string) => void;
  /** write JSON lines (jsonLogLine) instead of text */
  json?: boolean;
}

export function createLogger(level: LogLevel, opts: LoggerOptions | ((line: string) => void) = {}): Logger {
  const { write = (l: string) => void process.stderr.write(l), json = false } = typeof opts === 'function' ? { write: opts } : opts;
  return namedLogger(level, write, json ? jsonLogLine : formatLogLine, '', new LogHub());
}

function namedLogger(level: LogLevel, write: (line: string) => void, render: (e: LogEntry) => string, component: string, hub: LogHub): Logger {
  const emit = (at: LogLevel, message: string, fields: LogFields | undefined) => {
    const written = ORDER[at] >= ORDER[logger.level];
    if (!written && ORDER[at] < hub.lowest) return;
    const entry: LogEntry = fields === undefined ? { time: new Date(), level: at, component, message } : { time: new Date(), level: at, component, message, fields };
    if (written) write(render(entry));
    if (ORDER[at] >= hub.lowest) hub.publish(entry);
  };
  const logger: Logger = {
    level,
    trace: (m, f) => emit('trace', m, f),
    debug: (m, f) => emit('debug', m, f),
    info: (m, f) => emit('info', m, f),
    warn: (m, f) => emit('warn', m, f),
    error: (m, f) => emit('error', m, f),
    enabled: (at) => ORDER[at] >= ORDER[logger.level] || ORDER[at] >= hub.lowest,
    named: (c) => namedLogger(logger.level, write, render, component ? `${component}.${c}` : c, hub),
    subscribe: (at, listener) => hub.add(at, listener),
  };
  return logger;
}
