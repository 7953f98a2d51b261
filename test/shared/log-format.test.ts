/** How log lines are written: text with hclog's key=value pairs, or hclog's JSON objects (log_json). */
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../src/shared/log.js';

describe('text lines', () => {
  it('write the fields after the message as key=value, quoting values with spaces, quotes or equals signs', () => {
    const lines: string[] = [];
    const log = createLogger('info', (l) => lines.push(l)).named('http');
    log.info('request complete', { method: 'GET', path: '/v1/jobs?prefix=a b', status: 200, ok: true, note: 'x=y', empty: '' });
    log.info('plain');
    expect(lines[0]).toMatch(/^\S+Z \[INFO\] http: request complete: method=GET path="\/v1\/jobs\?prefix=a b" status=200 ok=true note="x=y" empty=""\n$/);
    expect(lines[1]).toMatch(/\[INFO\] http: plain\n$/);
  });
});

describe('JSON lines', () => {
  it('are one object a line with @level, @message, @module, @timestamp and the fields', () => {
    const lines: string[] = [];
    const log = createLogger('debug', { write: (l) => lines.push(l), json: true });
    log.named('scheduler').named('broker').debug('evaluation acked', { eval_id: 'e1', attempts: 2 });
    log.warn('root line');
    expect(lines).toHaveLength(2);
    for (const line of lines) expect(line.endsWith('\n') && !line.slice(0, -1).includes('\n')).toBe(true);
    const first = JSON.parse(lines[0]);
    expect(first).toEqual({ '@level': 'debug', '@message': 'evaluation acked', '@module': 'scheduler.broker', '@timestamp': expect.any(String), eval_id: 'e1', attempts: 2 });
    expect(new Date(first['@timestamp']).toISOString()).toBe(first['@timestamp']);
    // The root logger has no module, as hclog's unnamed logger.
    expect(JSON.parse(lines[1])).toEqual({ '@level': 'warn', '@message': 'root line', '@timestamp': expect.any(String) });
  });

  it('keep their four fields when a field has the same name', () => {
    const lines: string[] = [];
    createLogger('info', { write: (l) => lines.push(l), json: true }).info('real message', { '@message': 'forged', '@level': 'error' });
    expect(JSON.parse(lines[0])).toMatchObject({ '@level': 'info', '@message': 'real message' });
  });

  it('a message with newlines and quotes stays one line', () => {
    const lines: string[] = [];
    createLogger('info', { write: (l) => lines.push(l), json: true }).info('two\nlines "quoted"');
    expect(lines[0].trimEnd().split('\n')).toHaveLength(1);
    expect(JSON.parse(lines[0])['@message']).toBe('two\nlines "quoted"');
  });
});

describe('enabled', () => {
  it('says whether a line at a level is written or heard by a subscriber', () => {
    const log = createLogger('info', () => undefined);
    expect(log.enabled('debug')).toBe(false);
    expect(log.enabled('info')).toBe(true);
    const unsubscribe = log.subscribe('debug', () => undefined);
    expect(log.named('http').enabled('debug')).toBe(true);
    expect(log.enabled('trace')).toBe(false);
    unsubscribe();
    expect(log.enabled('debug')).toBe(false);
  });
});
