/** A small levelled logger for the server. Lines go to stderr as `<time> [LEVEL] <component>: <message>`. */
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
}

export interface Logger {
  level: LogLevel;
  trace(msg: string): void;
  debug(msg: string): void;
  info(msg: string): void;
  warn(msg: string): void;
  error(msg: string): void;
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

/** The line a log entry is written as: `<time> [LEVEL] <component>: <message>`. */
export function formatLogLine(e: LogEntry): string {
  return `${e.time.toISOString()} [${e.level.toUpperCase()}] ${e.component ? `${e.component}: ` : ''}${e.message}\n`;
}

export function createLogger(level: LogLevel, write: (line: string) => void = (l) => process.stderr.write(l), component = '', hub = new LogHub()): Logger {
  const emit = (at: LogLevel, msg: string) => {
    const written = ORDER[at] >= ORDER[logger.level];
    if (!written && ORDER[at] < hub.lowest) return;
    const entry: LogEntry = { time: new Date(), level: at, component, message: msg };
    if (written) write(formatLogLine(entry));
    if (ORDER[at] >= hub.lowest) hub.publish(entry);
  };
  const logger: Logger = {
    level,
    trace: (m) => emit('trace', m),
    debug: (m) => emit('debug', m),
    info: (m) => emit('info', m),
    warn: (m) => emit('warn', m),
    error: (m) => emit('error', m),
    named: (c) => createLogger(logger.level, write, component ? `${component}.${c}` : c, hub),
    subscribe: (at, listener) => hub.add(at, listener),
  };
  return logger;
}
