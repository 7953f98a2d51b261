/**
 * An HCL file read as plain data, for files whose settings are literal values (policies, the server's
 * configuration). The shape is the one HashiCorp's hcl2json gives, so readers written against it keep their
 * meaning: an attribute is its value; a block `type "a" "b" { ... }` is `{type: {a: {b: [body, ...]}}}`,
 * unlabeled `{type: [body, ...]}`. An expression that is not a literal is kept as its `${...}` source text,
 * which no setting accepts as a keyword. Unlike hcl2json, every body remembers where it was written.
 */
import { HclError, type HclErrorClass, type LineIndex } from './source.js';
import { parseHcl, type Body, type Expr } from './syntax.js';

export type Plain = string | number | boolean | null | Plain[] | { [key: string]: Plain };
export type PlainBody = { [key: string]: Plain };

/** Where a body's items are written, as offsets into the text. */
export interface Place {
  /** The block's first character, or the attribute's or key's an object is the value of; 0 for the top level. */
  start: number;
  /** The start of each item (attribute or block) of that name, in order; of a repeated key, the one kept. */
  items: Map<string, number[]>;
  /** The start of each attribute's value. */
  values: Map<string, number>;
}

export interface Document {
  value: PlainBody;
  /** Turns the offsets of a place into line and column. */
  lines: LineIndex;
  /** The place of the top level or of any block body or object found in `value`. */
  place(body: object): Place | undefined;
}

export function readDocument(text: string, file: string, error: HclErrorClass = HclError): Document {
  const source = parseHcl(text, file, error, true);
  const places = new WeakMap<object, Place>();

  const read = (body: Body, start: number): PlainBody => {
    const out: PlainBody = {};
    const place: Place = { start, items: new Map(), values: new Map() };
    places.set(out, place);
    const attrs = new Map<string, number>();
    for (const item of body.items) {
      const name = item.kind === 'attr' ? item.name : item.type;
      place.items.set(name, [...(place.items.get(name) ?? []), item.start]);
      if (item.kind === 'attr') {
        if (attrs.has(name)) {
          const first = source.lines.pos(attrs.get(name)!);
          throw new error(
            `Attribute redefined; The argument "${name}" was already set at line ${first.line}, column ${first.column}. Each argument may be set only once.`,
            source.lines.pos(item.start),
          );
        }
        attrs.set(name, item.start);
        place.values.set(name, item.expr.start);
        out[name] = plainValue(text, item.expr, places, item.start);
        continue;
      }
      // An attribute of the same name hides the blocks, as in hcl2json.
      if (attrs.has(name)) continue;
      const inner = read(item.body, item.start);
      if (item.labels.length === 0) {
        out[name] = [...((out[name] as Plain[] | undefined) ?? []), inner];
        continue;
      }
      // A label map is placed too (at its first block, each label at the blocks that carry it), so a block
      // that is not one body, as `path "a" "b"` is to a policy, can still be cited.
      let map = (out[name] ??= {}) as { [key: string]: Plain };
      item.labels.forEach((label, n) => {
        const at = places.get(map) ?? { start: item.start, items: new Map(), values: new Map() };
        places.set(map, at);
        at.items.set(label, [...(at.items.get(label) ?? []), item.start]);
        if (n < item.labels.length - 1) map = (map[label] ??= {}) as { [key: string]: Plain };
      });
      const last = item.labels[item.labels.length - 1];
      map[last] = [...((map[last] as Plain[] | undefined) ?? []), inner];
    }
    return out;
  };

  const value = read(source.body, 0);
  sortKeys(value);
  return { value, lines: source.lines, place: (body) => places.get(body) };
}

/** hcl2json's objects come from Go maps, whose keys it writes sorted; in place, so places stay found. */
function sortKeys(v: Plain): void {
  if (Array.isArray(v)) return v.forEach(sortKeys);
  if (typeof v !== 'object' || v === null) return;
  const entries = Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  for (const [k] of entries) delete v[k];
  for (const [k, x] of entries) {
    v[k] = x;
    sortKeys(x);
  }
}

/** An object is placed as a body is, starting at `at`, the attribute or key it is the value of. */
function plainValue(text: string, e: Expr, places: WeakMap<object, Place>, at = e.start): Plain {
  const literal = literalValue(text, e);
  if (literal !== undefined) return literal;
  switch (e.k) {
    case 'tuple':
      return e.items.map((i) => plainValue(text, i, places));
    case 'object': {
      const out: { [key: string]: Plain } = {};
      const place: Place = { start: at, items: new Map(), values: new Map() };
      places.set(out, place);
      for (const { key, value } of e.items) {
        const k = plainValue(text, key, places);
        const name = typeof k === 'string' ? k : JSON.stringify(k);
        // The last of repeated keys is the one kept, so it is the one placed.
        place.items.set(name, [key.start]);
        place.values.set(name, value.start);
        out[name] = plainValue(text, value, places, key.start);
      }
      return out;
    }
    case 'tmpl': {
      // `"${x}"` alone is x itself; otherwise literal parts are joined and the rest kept as written.
      const [only] = e.parts;
      if (e.parts.length === 1 && typeof only !== 'string' && 'text' in only) return plainValue(text, only.expr, places);
      const texts = e.parts.map((p) => {
        if (typeof p === 'string') return p;
        if (!('text' in p)) return undefined;
        const v = literalValue(text, p.expr);
        return v === undefined || v === null ? p.text : String(v);
      });
      // A directive keeps the whole template as written.
      return texts.includes(undefined) ? text.slice(e.start + 1, e.end - 1) : texts.join('');
    }
  }
  return `\${${text.slice(e.start, e.end)}}`;
}

/** A literal, or one operator on one, which hcl2json folds; a parenthesised one it keeps as an expression. */
function literalValue(text: string, e: Expr): Plain | undefined {
  if (text[e.start] === '(') return undefined;
  if (e.k === 'lit') return e.v as Plain;
  // `-3` reads as one literal here, as an operator on 3 in HCL2, so `--3` is two operators there.
  if (e.k !== 'unary' || e.e.k !== 'lit' || '(-'.includes(text[e.e.start])) return undefined;
  if (e.op === '-' && typeof e.e.v === 'number') return -e.e.v;
  if (e.op === '!' && typeof e.e.v === 'boolean') return !e.e.v;
  return undefined;
}
