/** A small levelled logger for the server. Lines go to stderr as `<time> [LEVEL] <component>: <message>`. */
export type LogLevel = 'trace' | 'debug' | 'info' | 'warn' | 'error';

const ORDER: Record<LogLevel, number> = { trace: 0, debug: 1, info: 2, warn: 3, error: 4 };
export const LOG_LEVELS = Object.keys(ORDER) as LogLevel[];

export interface Logger {
  level: LogLevel;
  trace(msg: string): void;
  debug(msg: string): void;
  info(msg: string): void;
  warn(msg: string): void;
  error(msg: string): void;
  named(component: string): Logger;
}

export function createLogger(level: LogLevel, write: (line: string) => void = (l) => process.stderr.write(l), component = ''): Logger {
  const emit = (at: LogLevel, msg: string) => {
    if (ORDER[at] < ORDER[logger.level]) return;
    write(`${new Date().toISOString()} [${at.toUpperCase()}] ${component ? `${component}: ` : ''}${msg}\n`);
  };
  const logger: Logger = {
    level,
    trace: (m) => emit('trace', m),
    debug: (m) => emit('debug', m),
    info: (m) => emit('info', m),
    warn: (m) => emit('warn', m),
    error: (m) => emit('error', m),
    named: (c) => createLogger(logger.level, write, component ? `${component}.${c}` : c),
  };
  return logger;
}
