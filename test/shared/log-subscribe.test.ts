/** The logger's subscriber hook (what `svc monitor` reads): levels, named loggers, unsubscribing. */
import { describe, expect, it } from 'vitest';
import { createLogger, type LogEntry } from '../../src/shared/log.js';

describe('Logger.subscribe', () => {
  it('gets entries from its level up, below the logger\'s own level too, from named loggers as well', () => {
    const written: string[] = [];
    const log = createLogger('info', (l) => written.push(l));
    const seen: LogEntry[] = [];
    const unsubscribe = log.subscribe('debug', (e) => seen.push(e));
    log.named('broker').debug('a debug line');
    log.trace('a trace line');
    log.warn('a warning');
    expect(seen.map((e) => [e.level, e.component, e.message])).toEqual([
      ['debug', 'broker', 'a debug line'],
      ['warn', '', 'a warning'],
    ]);
    // The writer keeps its own level: the debug line went to the subscriber only.
    expect(written).toHaveLength(1);
    expect(written[0]).toMatch(/^\d{4}-\d\d-\d\dT[\d:.]+Z \[WARN\] a warning\n$/);
    unsubscribe();
    log.error('after');
    expect(seen).toHaveLength(2);
  });

  it('a listener that throws stops neither the call nor the other listeners', () => {
    const log = createLogger('error', () => undefined);
    const seen: string[] = [];
    log.subscribe('info', () => {
      throw new Error('broken listener');
    });
    log.subscribe('info', (e) => seen.push(e.message));
    expect(() => log.info('still logged')).not.toThrow();
    expect(seen).toEqual(['still logged']);
  });

  it('each subscriber gets only its levels; the lowest level follows unsubscribes', () => {
    const log = createLogger('error', () => undefined);
    const debug: string[] = [];
    const warn: string[] = [];
    const stopDebug = log.subscribe('debug', (e) => debug.push(e.message));
    log.subscribe('warn', (e) => warn.push(e.message));
    log.info('one');
    stopDebug();
    log.info('two');
    log.warn('three');
    expect(debug).toEqual(['one']);
    expect(warn).toEqual(['three']);
  });
});
