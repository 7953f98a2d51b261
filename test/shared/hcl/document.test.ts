/**
 * The document reader gives the shapes HashiCorp's hcl2json gave for the same text (recorded from it), so
 * the policy and config readers written against those shapes keep their meaning, and it refuses what
 * HCL2 refuses, at the same place.
 */
import { describe, expect, it } from 'vitest';
import { readDocument } from '../../../src/shared/hcl/document.js';
import { HclError } from '../../../src/shared/hcl/source.js';

const read = (text: string) => readDocument(text, 'p.hcl').value;

describe('readDocument', () => {
  it.each([
    ['a = 1\nb = "x"\nc = [1, "y", true, null]\nd = { k = "v" }\n', { a: 1, b: 'x', c: [1, 'y', true, null], d: { k: 'v' } }],
    ['x = foo\n', { x: '${foo}' }],
    ['x = "a${foo}b"\n', { x: 'a${foo}b' }],
    ['x = 1 + 2\n', { x: '${1 + 2}' }],
    ['x = (1)\n', { x: '${(1)}' }],
    ['x = - 3\n', { x: -3 }],
    ['x = --3\n', { x: '${--3}' }],
    ['x = !true\n', { x: false }],
    ['x = "${1}"\n', { x: 1 }],
    ['x = "a${"b"}${x}"\n', { x: 'ab${x}' }],
    ['x = "%{if true}a%{endif}"\n', { x: '%{if true}a%{endif}' }],
    ['x = "\\n\\u0041"\n', { x: '\nA' }],
    ['x = <<-EOT\n   a\n  b\n  EOT\n', { x: ' a\nb\n' }],
    ['p "a" "b" {\n  c = 1\n}\n', { p: { a: { b: [{ c: 1 }] } } }],
    ['p {\n}\np {\n}\n', { p: [{}, {}] }],
    ['p "l" {\n}\np "l" {\n  x = 1\n}\n', { p: { l: [{}, { x: 1 }] } }],
    ['a { b = 1 }\n', { a: [{ b: 1 }] }],
    ['a = 1\na {\n}\n', { a: 1 }],
    ['x = {a = 1, a = 2}\n', { x: { a: 2 } }],
    ['client {\n  meta {\n    räck-1 = "r1"\n  }\n}\n', { client: [{ meta: [{ 'räck-1': 'r1' }] }] }],
  ])('%j', (text, want) => {
    expect(read(text)).toEqual(want);
  });

  it('orders keys as hcl2json wrote them, sorted', () => {
    expect(Object.keys(read('path "b" {\n}\npath "a" {\n}\nnode {\n}\n'))).toEqual(['node', 'path']);
    expect(Object.keys(read('path "b" {\n}\npath "a" {\n}\n').path as object)).toEqual(['a', 'b']);
  });

  it.each([
    ['a { b = 1, }\n', 'p.hcl:1:10:'],
    ['a {\n b = 1 }\n', 'p.hcl:2:8: Missing newline after argument'],
    ['a = 1, \n', 'p.hcl:1:6: Unexpected comma after argument'],
    ['a {} b {}\n', 'p.hcl:1:6: Missing newline after block definition'],
    ['a {b = 1\n}\n', 'p.hcl:1:9: Invalid single-argument block definition'],
    ['a { b {} }\n', 'p.hcl:1:5: Argument definition required'],
    ['a = 1\na = 2\n', 'p.hcl:2:1: Attribute redefined; The argument "a" was already set at line 1, column 1.'],
    ['x = 0x10\n', 'p.hcl:1:6:'],
  ])('refuses %j', (text, where) => {
    expect(() => read(text)).toThrow(HclError);
    expect(() => read(text)).toThrow(where);
  });

  it('knows where each body and attribute was written', () => {
    const doc = readDocument('# c\nnode {\n  policy = "read"\n}\n', 'p.hcl');
    const top = doc.place(doc.value)!;
    expect(top.items.get('node')).toEqual([4]);
    const body = (doc.value.node as object[])[0];
    expect(doc.place(body)!.values.get('policy')).toBe(22);
  });

  it('places a label map at its first block, each label at the blocks that carry it', () => {
    const text = 'p "a" "b" {\n}\np "a" "c" {\n}\np "d" {\n}\n';
    const doc = readDocument(text, 'p.hcl');
    const labels = doc.value.p as Record<string, object>;
    const [c, d] = [text.indexOf('p "a" "c"'), text.indexOf('p "d"')];
    expect(doc.place(labels)).toMatchObject({ start: 0, items: new Map([['a', [0, c]], ['d', [d]]]) });
    expect(doc.place(labels.a)).toMatchObject({ start: 0, items: new Map([['b', [0]], ['c', [c]]]) });
  });

  it('places an object value as a body, at the attribute or key it is the value of', () => {
    const text = 'path = {\n  "a" = { capabilities = ["read"] }\n  a = { x = 1 }\n}\n';
    const doc = readDocument(text, 'p.hcl');
    const path = doc.value.path as Record<string, object>;
    expect(doc.place(path)!.start).toBe(0);
    // The last of repeated keys is kept, and placed.
    expect(path.a).toEqual({ x: 1 });
    expect(doc.place(path)!.items.get('a')).toEqual([text.indexOf('a = {')]);
    expect(doc.place(path.a)!.start).toBe(text.indexOf('a = {'));
    expect(doc.place(path.a)!.values.get('x')).toBe(text.indexOf('1 }'));
  });
});
