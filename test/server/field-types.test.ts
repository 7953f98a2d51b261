import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FieldData, coerceField } from '../../src/framework/schema/field-data.js';
import type { FieldSchema, Fields } from '../../src/framework/schema/field-schema.js';
import { definePath, type Backend } from '../../src/secrets/framework/path.js';
import { UserError } from '../../src/shared/errors.js';
import { formatDuration, parseDurationSeconds } from '../../src/shared/duration.js';
import { startInProcessServer, type InProcessServer } from '../support/in-process.js';

const field = (type: FieldSchema['type'], extra: Partial<FieldSchema> = {}): FieldSchema => ({ type, description: '', ...extra });

/** The coerced value of one field, through the same constructor the pipeline uses. */
function coerce(type: FieldSchema['type'], value: unknown, extra: Partial<FieldSchema> = {}): unknown {
  return new FieldData({ x: value }, { x: field(type, extra) }, 'update').get('x');
}

function rejection(type: FieldSchema['type'], value: unknown, extra: Partial<FieldSchema> = {}): UserError {
  try {
    coerce(type, value, extra);
  } catch (err) {
    expect(err).toBeInstanceOf(UserError);
    return err as UserError;
  }
  throw new Error(`${type} accepted ${JSON.stringify(value)}`);
}

describe('FieldData coercion', () => {
  it('string: scalars become text, objects and arrays are refused with the field named', () => {
    expect(coerce('string', 'abc')).toBe('abc');
    expect(coerce('string', 5)).toBe('5');
    expect(coerce('string', true)).toBe('true');
    expect(rejection('string', { a: 1 }).message).toBe('field "x" must be a string, got an object');
    expect(rejection('string', ['a']).message).toContain('field "x" must be a string');
  });

  it('a sensitive field is never echoed in the error', () => {
    const err = rejection('string', { secret: 'hunter2' }, { sensitive: true });
    expect(err.message).not.toContain('hunter2');
    expect(err.message).toContain('the given value');
    expect(rejection('int', 'hunter2', { sensitive: true }).message).not.toContain('hunter2');
  });

  it('lowercase-string lowers the case and refuses objects', () => {
    expect(coerce('lowercase-string', 'MiXeD')).toBe('mixed');
    expect(coerce('lowercase-string', 42)).toBe('42');
    rejection('lowercase-string', { a: 'B' });
  });

  it('int: numbers and integer strings; fractions, booleans and words are refused', () => {
    expect(coerce('int', 5)).toBe(5);
    expect(coerce('int', '5')).toBe(5);
    expect(coerce('int', ' -12 ')).toBe(-12);
    expect(coerce('int', '')).toBe(0);
    expect(rejection('int', '5.5').message).toBe('field "x" must be an integer, got string "5.5"');
    expect(rejection('int', 5.5).message).toContain('must be an integer');
    expect(rejection('int', true).message).toContain('must be an integer');
    expect(rejection('int', 'x').message).toContain('must be an integer');
    rejection('int', [1]);
  });

  it("bool: every spelling of Go's ParseBool, and nothing else", () => {
    for (const t of [true, 1, '1', 't', 'T', 'TRUE', 'true', 'True']) expect(coerce('bool', t)).toBe(true);
    for (const f of [false, 0, '0', 'f', 'F', 'FALSE', 'false', 'False', '']) expect(coerce('bool', f)).toBe(false);
    for (const bad of ['yes', 'no', 'tRUE', 'on', 2, {}]) rejection('bool', bad);
    expect(rejection('bool', 'yes').message).toBe('field "x" must be a boolean, got string "yes"');
  });

  it('duration: seconds as number or text, Go durations, days; whole seconds', () => {
    expect(coerce('duration', 30)).toBe(30);
    expect(coerce('duration', '30')).toBe(30);
    expect(coerce('duration', '72h')).toBe(72 * 3600);
    expect(coerce('duration', '1h30m')).toBe(5400);
    expect(coerce('duration', '1d')).toBe(86400);
    expect(coerce('duration', '90s')).toBe(90);
    // Vault's TypeDurationSecond truncates to whole seconds.
    expect(coerce('duration', '500ms')).toBe(0);
    expect(coerce('duration', '1500ms')).toBe(1);
    expect(coerce('duration', '')).toBe(0);
    expect(rejection('duration', 'abc').message).toContain('field "x" must be a duration');
    rejection('duration', '10 parsecs');
    rejection('duration', true);
    rejection('duration', { h: 1 });
  });

  it('list: comma strings are split and trimmed, arrays of scalars accepted, nested values refused', () => {
    expect(coerce('list', 'a, b ,c')).toEqual(['a', 'b', 'c']);
    expect(coerce('list', 'a,,b,')).toEqual(['a', 'b']);
    expect(coerce('list', '')).toEqual([]);
    expect(coerce('list', ['a', ' b ', 3])).toEqual(['a', 'b', '3']);
    expect(coerce('list', 7)).toEqual(['7']);
    expect(rejection('list', ['a', { b: 1 }]).message).toContain('field "x" must be a list of strings');
    rejection('list', ['a', ['b']]);
    rejection('list', { a: 1 });
    rejection('list', true);
  });

  it('map: an object, a JSON string holding one, or k=v strings; nested values refused', () => {
    expect(coerce('map', { a: 'b', n: 1 })).toEqual({ a: 'b', n: '1' });
    expect(coerce('map', '{"a":"b"}')).toEqual({ a: 'b' });
    expect(coerce('map', ['a=b', 'c=d=e'])).toEqual({ a: 'b', c: 'd=e' });
    expect(coerce('map', '')).toEqual({});
    expect(rejection('map', { a: { nested: 'x' } }).message).toBe('field "x" must be a map of string to string; key "a" holds an object');
    rejection('map', 'not json');
    rejection('map', '[1,2]');
    rejection('map', ['no-equals-sign']);
    rejection('map', 5);
  });

  it('object: any JSON object, directly or as a JSON string; anything else refused', () => {
    expect(coerce('object', { a: { b: [1] } })).toEqual({ a: { b: [1] } });
    expect(coerce('object', '{"a":1}')).toEqual({ a: 1 });
    expect(rejection('object', [1]).message).toBe('field "x" must be a JSON object, got an array');
    rejection('object', '[1]');
    rejection('object', 'x');
    rejection('object', 1);
  });

  it('coerceField is the same coercion, usable on its own', () => {
    expect(coerceField('n', field('int'), '7')).toBe(7);
    expect(() => coerceField('n', field('int'), 'seven')).toThrow('field "n" must be an integer');
  });
});

describe('FieldData rules', () => {
  const schema: Fields = {
    name: field('string', { required: true }),
    kind: field('string', { allowedValues: ['a', 'b'] }),
    tags: field('list', { allowedValues: ['x', 'y'] }),
    ttl: field('duration', { default: '1h' }),
    old_name: field('string', { deprecated: 'name' }),
    legacy: field('bool', { deprecated: true }),
    only_on_delete: field('string', { required: ['delete'] }),
    opts: field('map', { default: { a: 'b' } }),
  };

  it('a required field that is missing is a 400 naming it, on create and update only', () => {
    expect(() => new FieldData({}, schema, 'create')).toThrow('missing required field "name"');
    expect(() => new FieldData({}, schema, 'update')).toThrow('missing required field "name"');
    expect(() => new FieldData({ name: null }, schema, 'update')).toThrow('missing required field "name"');
    expect(() => new FieldData({ name: '' }, schema, 'update')).toThrow('field "name" must not be empty');
    expect(() => new FieldData({}, schema, 'read')).not.toThrow();
    expect(() => new FieldData({ name: 'n' }, schema, 'update')).not.toThrow();
  });

  it('required may name operations', () => {
    expect(() => new FieldData({ name: 'n' }, schema, 'delete')).toThrow('missing required field "only_on_delete"');
    expect(() => new FieldData({ only_on_delete: 'v' }, schema, 'delete')).not.toThrow();
  });

  it('allowed values are enforced, for lists item by item, and the error lists them', () => {
    expect(() => new FieldData({ name: 'n', kind: 'c' }, schema, 'update')).toThrow('invalid value "c" for field "kind": must be one of a, b');
    expect(() => new FieldData({ name: 'n', tags: 'x,z' }, schema, 'update')).toThrow('invalid value "z" for field "tags": must be one of x, y');
    expect(new FieldData({ name: 'n', kind: 'b', tags: 'y,x' }, schema, 'update').get('tags')).toEqual(['y', 'x']);
  });

  it('unknown parameters are collected and reported as Vault words it', () => {
    const data = new FieldData({ name: 'n', zeta: 1, alpha: 2 }, schema, 'update');
    expect(data.unknown.sort()).toEqual(['alpha', 'zeta']);
    expect(data.warnings()).toEqual(['Endpoint ignored these unrecognized parameters: [alpha zeta]']);
    expect(new FieldData({ name: 'n' }, schema, 'update').warnings()).toEqual([]);
  });

  it('a deprecated field warns, pointing at its replacement when there is one', () => {
    const data = new FieldData({ name: 'n', old_name: 'o', legacy: 'true' }, schema, 'update');
    expect(data.warnings()).toEqual(['Field "old_name" is deprecated; use "name" instead', 'Field "legacy" is deprecated']);
    expect(data.get('legacy')).toBe(true);
  });

  it('get falls back to the default, then to the zero value; getOk and has tell what was sent', () => {
    const data = new FieldData({ name: 'n' }, schema, 'update');
    expect(data.get('ttl')).toBe('1h');
    expect(data.get('kind')).toBe('');
    expect(data.get('tags')).toEqual([]);
    expect(data.get('legacy')).toBe(false);
    expect(data.has('ttl')).toBe(false);
    expect(data.getOk('ttl')).toBeUndefined();
    expect(data.has('name')).toBe(true);
    expect(() => data.get('nope')).toThrow('not in the schema');
  });

  it('a default is copied, so a handler cannot change it for the next request', () => {
    const first = new FieldData({ name: 'n' }, schema, 'update').get<Record<string, string>>('opts');
    first.a = 'changed';
    expect(new FieldData({ name: 'n' }, schema, 'update').get('opts')).toEqual({ a: 'b' });
  });
});

describe('durations (src/shared/duration.ts)', () => {
  it('parses seconds, Go durations and days', () => {
    expect(parseDurationSeconds(45)).toBe(45);
    expect(parseDurationSeconds('45')).toBe(45);
    expect(parseDurationSeconds(' 45 ')).toBe(45);
    expect(parseDurationSeconds('0')).toBe(0);
    expect(parseDurationSeconds('10s')).toBe(10);
    expect(parseDurationSeconds('30m')).toBe(1800);
    expect(parseDurationSeconds('1h30m')).toBe(5400);
    expect(parseDurationSeconds('1.5h')).toBe(5400);
    expect(parseDurationSeconds('2d')).toBe(172800);
    expect(parseDurationSeconds('500ms')).toBe(0.5);
    expect(parseDurationSeconds('-1h')).toBe(-3600);
    expect(parseDurationSeconds('-5')).toBe(-5);
  });

  it('refuses what is not a duration', () => {
    for (const bad of ['', 'abc', '1x', 'h', '1h 30m', '1h30', '--1h', Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(parseDurationSeconds(bad), String(bad)).toBeUndefined();
    }
  });

  it('formats seconds as Go does', () => {
    expect(formatDuration(0)).toBe('0s');
    expect(formatDuration(45)).toBe('45s');
    expect(formatDuration(1800)).toBe('30m0s');
    expect(formatDuration(5400)).toBe('1h30m0s');
    expect(formatDuration(768 * 3600)).toBe('768h0m0s');
    expect(formatDuration(-90)).toBe('-1m30s');
  });

  it('format and parse round-trip', () => {
    for (const s of [0, 1, 59, 61, 3599, 3601, 86400, 2764800]) expect(parseDurationSeconds(formatDuration(s))).toBe(s);
  });
});

describe('field coercion through HTTP', () => {
  let ts: InProcessServer;
  const seen: Array<Record<string, unknown>> = [];

  // A test-only backend with one field of each type, routed like a fixed mount, so the real pipeline
  // (body parsing, query handling, coercion, warnings, error responder) runs in front of it.
  const echo: Backend = {
    type: 'field-echo',
    description: 'echoes coerced fields',
    paths: [
      definePath({
        pattern: 'echo/:name',
        synopsis: 'echo',
        description: 'echo',
        fields: {
          name: field('string'),
          s: field('string'),
          lower: field('lowercase-string'),
          n: field('int'),
          b: field('bool'),
          d: field('duration'),
          l: field('list'),
          m: field('map'),
          o: field('object'),
          mode: field('string', { allowedValues: ['fast', 'slow'] }),
          must: field('string', { required: ['create'] }),
          old: field('string', { deprecated: 's' }),
          q: field('string', { query: true }),
        },
        existenceCheck: (req) => req.params.name !== 'new',
        operations: {
          read: { summary: 'echo', handler: async (_req, data) => ({ data: { n: data.get('n'), b: data.get('b') } }) },
          create: { summary: 'echo', handler: async () => ({ data: { created: true } }) },
          update: {
            summary: 'echo',
            handler: async (_req, data) => {
              const out: Record<string, unknown> = {};
              for (const k of ['s', 'lower', 'n', 'b', 'd', 'l', 'm', 'o', 'mode', 'q']) if (data.has(k)) out[k] = data.get(k);
              seen.push(out);
              return { data: out };
            },
          },
        },
      }),
    ],
  };

  beforeAll(async () => {
    ts = await startInProcessServer();
    ts.server.routing.fixed['auth/field-echo/'] = echo;
  });
  afterAll(async () => {
    await ts?.close();
  });

  async function post(body: unknown, path = 'echo/one'): Promise<{ status: number; json: Record<string, unknown> }> {
    const answer = await ts.client().request('POST', `/v1/auth/field-echo/${path}`, { body });
    const text = answer.body.toString('utf8');
    return { status: answer.status, json: text === '' ? {} : (JSON.parse(text) as Record<string, unknown>) };
  }

  it('coerces every type from JSON', async () => {
    const { status, json } = await post({
      s: 5,
      lower: 'ABC',
      n: '5',
      b: 'T',
      d: '1h30m',
      l: 'a, b',
      m: ['k=v'],
      o: '{"deep":{"x":1}}',
      mode: 'fast',
    });
    expect(status).toBe(200);
    expect(json.data).toEqual({ s: '5', lower: 'abc', n: 5, b: true, d: 5400, l: ['a', 'b'], m: { k: 'v' }, o: { deep: { x: 1 } }, mode: 'fast' });
  });

  it('a wrong type is a 400 naming the field, and the handler never runs', async () => {
    const before = seen.length;
    for (const [body, message] of [
      [{ n: '5.5' }, 'field "n" must be an integer, got string "5.5"'],
      [{ b: 'yes' }, 'field "b" must be a boolean, got string "yes"'],
      [{ d: 'abc' }, 'field "d" must be a duration'],
      [{ l: [{ x: 1 }] }, 'field "l" must be a list of strings'],
      [{ m: { k: { nested: 1 } } }, 'field "m" must be a map of string to string; key "k" holds an object'],
      [{ s: { a: 1 } }, 'field "s" must be a string, got an object'],
      [{ o: [1] }, 'field "o" must be a JSON object'],
    ] as const) {
      const { status, json } = await post(body);
      expect(status, JSON.stringify(body)).toBe(400);
      expect((json.errors as string[])[0]).toContain(message);
    }
    expect(seen.length).toBe(before);
  });

  it('allowed values and required fields are enforced over HTTP', async () => {
    const bad = await post({ mode: 'medium' });
    expect(bad.status).toBe(400);
    expect(bad.json.errors).toEqual(['invalid value "medium" for field "mode": must be one of fast, slow']);
    const missing = await post({}, 'echo/new');
    expect(missing.status).toBe(400);
    expect(missing.json.errors).toEqual(['missing required field "must"']);
    const created = await post({ must: 'x' }, 'echo/new');
    expect(created.status).toBe(200);
    expect(created.json.data).toEqual({ created: true });
  });

  it('unknown and deprecated parameters come back as warnings', async () => {
    const { status, json } = await post({ s: 'x', zz: 1, aa: 2, old: 'o' });
    expect(status).toBe(200);
    expect(json.warnings).toEqual(['Endpoint ignored these unrecognized parameters: [aa zz]', 'Field "old" is deprecated; use "s" instead']);
  });

  it('reads coerce query parameters; writes take only query-marked fields from the query', async () => {
    const read = await ts.client().request('GET', '/v1/auth/field-echo/echo/one', { query: { n: '12', b: 'false' } });
    expect(JSON.parse(read.body.toString()).data).toEqual({ n: 12, b: false });
    const badRead = await ts.client().request('GET', '/v1/auth/field-echo/echo/one', { query: { n: 'twelve' } });
    expect(badRead.status).toBe(400);
    const write = await ts.client().request('POST', '/v1/auth/field-echo/echo/one', { query: { q: 'from-query', s: 'ignored' }, body: { s: 'from-body' } });
    expect(JSON.parse(write.body.toString()).data).toEqual({ s: 'from-body', q: 'from-query' });
  });

  it('a real endpoint coerces too: a token TTL given as a duration string', async () => {
    const created = await ts.client().secrets('POST', 'auth/token/create', { body: { ttl: '1h30m', policies: 'default', num_uses: '3' } });
    expect(created?.auth?.lease_duration).toBe(5400);
    expect(created?.auth?.num_uses).toBe(3);
    const bad = await ts.client().request('POST', '/v1/auth/token/create', { body: { ttl: 'soon' } });
    expect(bad.status).toBe(400);
    expect(JSON.parse(bad.body.toString()).errors[0]).toContain('field "ttl" must be a duration');
  });
});
