/**
 * The JSON reader gives what JSON.parse gives, value and error wording alike, and adds where things are:
 * the error's line and column (V8's own offset where it names one) and each object's place.
 */
import { describe, expect, it } from 'vitest';
import { readJsonDocument } from '../../../src/shared/hcl/json-document.js';
import { HclError } from '../../../src/shared/hcl/source.js';

const read = (text: string) => readJsonDocument(text, 'p.json');

function failure(text: string): HclError {
  try {
    read(text);
  } catch (err) {
    expect(err).toBeInstanceOf(HclError);
    return err as HclError;
  }
  throw new Error(`${JSON.stringify(text)} was read`);
}

function offsetOf(text: string, line: number, column: number): number {
  return text.split('\n').slice(0, line - 1).reduce((n, l) => n + l.length + 1, 0) + column - 1;
}

const VALID = [
  '{}',
  ' \t\r\n{ "a" : [ ] , "b" : { } }\n',
  '{"a": 1, "b": -0, "c": 1.5e3, "d": -2E-2, "e": 0.25, "f": 1e400, "g": 12345678901234567890}',
  '{"s": "x\\"\\\\\\/\\b\\f\\n\\r\\t\\u0041\\ud83d\\ude00\\ud800 é"}',
  '{"a": 1, "a": {"b": 2}, "c": [true, false, null, [[{}]]]}',
  '{"2": "x", "b": 1, "1": "y", "a": 2}',
  '{"__proto__": {"polluted": true}, "constructor": 1}',
];

const BROKEN = [
  '',
  '  ',
  '{',
  '[',
  '{"a": 1',
  '{"a" 1}',
  '{"a"',
  '{"a":',
  '{x}',
  "{'a': 1}",
  '{"a":1,}',
  '{"a": 1, }',
  '{"a": tru}',
  '{"a": tx}',
  '{"a": t',
  '{"a": nul}',
  '{"a": NaN}',
  '{"a": "b',
  '{"a": "x"',
  '{"a": "x\ny"}',
  '{"a": "\\q"}',
  '{"a": "\\',
  '{"a": "\\u12g4"}',
  '{"a": "\\u12',
  '{"a": 01}',
  '{"a": -01}',
  '{"a": 1.}',
  '{"a": .5}',
  '{"a": +1}',
  '{"a": -}',
  '{"a": 1e}',
  '{"a": 1e+}',
  '{"a": 1.5e-x}',
  '{"a": [1,]}',
  '{"a": [1 2]}',
  '{"a": 1}x',
  '{"a": 1} {}',
  '\ufeff{}',
  '{"a": {"b": [1, {"c": }]}}',
];

describe('readJsonDocument', () => {
  it.each(VALID)('reads %# as JSON.parse does, key order and -0 included', (text) => {
    const { value } = read(text);
    expect(Object.is(value.b, -0)).toBe(text.includes('"b": -0'));
    expect(value).toStrictEqual(JSON.parse(text));
    expect(JSON.stringify(value)).toBe(JSON.stringify(JSON.parse(text)));
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
  });

  it('reads nesting as deep as JSON.parse does', () => {
    const depth = 100_000;
    let v: unknown = read(`{"deep": ${'['.repeat(depth)}{}${']'.repeat(depth)}}`).value.deep;
    for (let n = 0; n < depth; n++) v = (v as unknown[])[0];
    expect(v).toEqual({});
  });

  it.each(BROKEN)('refuses %j with JSON.parse words, at its offset', (text) => {
    let message = '';
    try {
      JSON.parse(text);
    } catch (err) {
      message = (err as Error).message;
    }
    const err = failure(text);
    expect(err.message).toMatch(/^p\.json:\d+:\d+: /);
    expect(err.message.replace(/^p\.json:\d+:\d+: /, '')).toBe(message);
    const at = /at position (\d+)/.exec(message);
    if (at) expect(offsetOf(text, err.pos!.line, err.pos!.column)).toBe(Number(at[1]));
  });

  it('places an unnamed error where it is: the token V8 names, or the end', () => {
    expect(failure('{\n  "a": [1,\n    ]\n}').pos).toMatchObject({ line: 3, column: 5 });
    expect(failure('{\n  "a": tru}').pos).toMatchObject({ line: 2, column: 11 });
    expect(failure('{\n  "a": {\n').pos).toMatchObject({ line: 3, column: 1 });
  });

  it('refuses a document that is not an object, where its value starts', () => {
    expect(failure('\n  [1]').message).toBe('p.json:2:3: a JSON document must be an object');
  });

  it('places each object at its key, or at its brace when it has none, and each key and value', () => {
    const text = '{\n  "node": [\n    {"policy": "read"},\n    {"policy": "write"}\n  ],\n  "path": {"a": {"x": 1}, "a": {"y": 2}}\n}';
    const doc = read(text);
    const at = (offset: number | undefined) => doc.lines.pos(offset!);
    const top = doc.place(doc.value)!;
    expect(top.start).toBe(0);
    expect(at(top.items.get('path')![0])).toMatchObject({ line: 6, column: 3 });
    const [first, second] = doc.value.node as object[];
    expect(at(doc.place(first)!.start)).toMatchObject({ line: 3, column: 5 });
    expect(at(doc.place(second)!.values.get('policy'))).toMatchObject({ line: 4, column: 16 });
    const path = doc.value.path as Record<string, object>;
    // The last "a" is the one kept, so it is the one placed.
    expect(path.a).toEqual({ y: 2 });
    expect(doc.place(path)!.items.get('a')).toEqual([text.lastIndexOf('"a"')]);
    expect(doc.place(path.a)!.start).toBe(text.lastIndexOf('"a"'));
  });
});
