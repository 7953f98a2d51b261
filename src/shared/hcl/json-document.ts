/**
 * A JSON file read as the `Document` an HCL one gives, so a JSON policy or configuration file cites line
 * and column wherever an HCL one does. The value is exactly what JSON.parse gives (the last of repeated keys
 * wins, in the first one's place; numbers as JS numbers); so is the wording of a syntax error. An object's
 * place starts at the key it is the value of, as a block's starts at its type, or at its `{` when it has
 * none; its items are its keys, each where the occurrence that was kept is written.
 */
import { HclError, LineIndex, type HclErrorClass } from './source.js';
import type { Document, Place, Plain, PlainBody } from './document.js';

const ESCAPES: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };

/** An object or array being read: what is read next goes into it. */
interface Open {
  value: PlainBody | Plain[];
  place?: Place;
  /** For an object, the key being read and where it is written. */
  key?: string;
  keyAt?: number;
}

export function readJsonDocument(text: string, file: string, error: HclErrorClass = HclError): Document {
  const lines = new LineIndex(file, text);
  const places = new WeakMap<object, Place>();
  let i = 0;

  // The words are JSON.parse's, which users and tests already know; the reader adds only where. It refuses
  // what JSON.parse refuses, so the last line is only there for the type.
  const fail = (at: number): never => {
    try {
      JSON.parse(text);
    } catch (err) {
      throw new error((err as Error).message, lines.pos(at));
    }
    throw new error('Unexpected token in JSON', lines.pos(at));
  };
  const ws = (): void => {
    for (let c = text.charCodeAt(i); c === 32 || c === 10 || c === 13 || c === 9; c = text.charCodeAt(++i));
  };
  const expect = (ch: string): void => {
    if (text[i] !== ch) fail(i);
    i++;
  };
  const digits = (): void => {
    if (!(text[i] >= '0' && text[i] <= '9')) fail(i);
    while (text[i] >= '0' && text[i] <= '9') i++;
  };

  const string = (): string => {
    let out = '';
    let from = ++i;
    for (;;) {
      const c = text.charCodeAt(i);
      if (c === 34) {
        out += text.slice(from, i++);
        return out;
      }
      if (i >= text.length || c < 0x20) fail(i);
      if (c !== 92) {
        i++;
        continue;
      }
      out += text.slice(from, i++);
      if (text[i] === 'u') {
        for (const end = ++i + 4; i < end; i++) if (!/[0-9a-fA-F]/.test(text[i] ?? '')) fail(i);
        out += String.fromCharCode(parseInt(text.slice(i - 4, i), 16));
      } else {
        const escaped = ESCAPES[text[i]];
        if (escaped === undefined) fail(i);
        out += escaped;
        i++;
      }
      from = i;
    }
  };

  const scalar = (): Plain => {
    const c = text[i];
    if (c === '"') return string();
    for (const [word, v] of [['true', true], ['false', false], ['null', null]] as const) {
      if (c !== word[0]) continue;
      for (const ch of word) {
        if (text[i] !== ch) fail(i);
        i++;
      }
      return v;
    }
    const start = i;
    if (c === '-') i++;
    else if (!(c >= '0' && c <= '9')) fail(i);
    if (text[i] === '0') i++;
    else digits();
    if (text[i] === '.') {
      i++;
      digits();
    }
    if (text[i] === 'e' || text[i] === 'E') {
      i++;
      if (text[i] === '+' || text[i] === '-') i++;
      digits();
    }
    return Number(text.slice(start, i));
  };

  /** Reads the next key of an object and its colon, up to its value. */
  const key = (open: Open): void => {
    if (text[i] !== '"') fail(i);
    open.keyAt = i;
    open.key = string();
    ws();
    expect(':');
    ws();
    open.place!.items.set(open.key, [open.keyAt]);
    open.place!.values.set(open.key, i);
  };

  // An explicit stack rather than recursion, so nesting is as unbounded as JSON.parse's.
  const stack: Open[] = [];
  ws();
  for (;;) {
    const top = stack[stack.length - 1] as Open | undefined;
    let v: Plain;
    if (text[i] === '{') {
      const body: PlainBody = {};
      const place: Place = { start: top?.keyAt ?? i, items: new Map(), values: new Map() };
      places.set(body, place);
      i++;
      ws();
      if (text[i] !== '}') {
        const open: Open = { value: body, place };
        stack.push(open);
        key(open);
        continue;
      }
      i++;
      v = body;
    } else if (text[i] === '[') {
      i++;
      ws();
      if (text[i] !== ']') {
        stack.push({ value: [] });
        continue;
      }
      i++;
      v = [];
    } else {
      v = scalar();
    }
    // Put the value in place, then close every object and array it ends.
    for (;;) {
      const open = stack[stack.length - 1] as Open | undefined;
      ws();
      if (open === undefined) {
        if (i < text.length) fail(i);
        if (typeof v !== 'object' || v === null || Array.isArray(v)) {
          throw new error('a JSON document must be an object', lines.pos(text.length - text.trimStart().length));
        }
        return { value: v, lines, place: (body) => places.get(body) };
      }
      if (Array.isArray(open.value)) open.value.push(v);
      // As in JSON.parse, "__proto__" is a key like another, not the object's prototype.
      else if (open.key === '__proto__') Object.defineProperty(open.value, open.key, { value: v, writable: true, enumerable: true, configurable: true });
      else open.value[open.key!] = v;
      if (text[i] === ',') {
        i++;
        ws();
        if (!Array.isArray(open.value)) key(open);
        break;
      }
      expect(Array.isArray(open.value) ? ']' : '}');
      stack.pop();
      v = open.value;
    }
  }
}
