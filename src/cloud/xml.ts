/**
 * Parsing of the provider's query-protocol answers. Every value stays a string: account IDs have leading
 * zeros and key IDs can look numeric. EC2 lists are `<item>`, IAM/STS lists `<member>`; both always
 * become arrays so a one-element list has the same shape as a longer one. Another element repeated
 * under one parent becomes an array too.
 *
 * The answers are machine-written element trees, so this is a small reader of exactly that: elements,
 * text (trimmed; the five predefined entities decoded), CDATA kept as written, attributes, comments,
 * processing instructions and a DOCTYPE skipped. An element with text only is its text ('' when empty);
 * one with children is an object, its text (if any) under '#text'. A tag that does not close, or closes
 * the wrong element, is an error. Every login reads a DescribeInstances answer through here, so it scans
 * with indexOf rather than building tokens.
 */

export type XmlNode = { [key: string]: XmlValue };
export type XmlValue = string | XmlNode | XmlValue[];

/** Thrown for text that is not a well-formed element tree. */
export class XmlSyntaxError extends Error {}

const ENTITY = /&(lt|gt|amp|quot|apos);/g;
const ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };
const decode = (s: string) => (s.includes('&') ? s.replace(ENTITY, (_, name: string) => ENTITIES[name]) : s);

const ALWAYS_LIST = new Set(['item', 'member']);

interface Open {
  name: string;
  children: XmlNode | undefined;
  text: string;
  /** names of children that repeated, whose value is the array of them */
  repeated?: Set<string>;
}

function add(parent: Open, name: string, value: XmlValue): void {
  const children = (parent.children ??= {});
  // An own property even for a name Object.prototype also has: the tree is data, never a prototype.
  if (!Object.prototype.hasOwnProperty.call(children, name)) {
    const first = ALWAYS_LIST.has(name) ? [value] : value;
    if (name === '__proto__') Object.defineProperty(children, name, { value: first, enumerable: true, writable: true, configurable: true });
    else children[name] = first;
    return;
  }
  const existing = children[name];
  if (Array.isArray(existing) && (ALWAYS_LIST.has(name) || parent.repeated?.has(name))) {
    existing.push(value);
    return;
  }
  children[name] = [existing, value];
  (parent.repeated ??= new Set()).add(name);
}

function valueOf(open: Open): XmlValue {
  if (!open.children) return open.text;
  if (open.text !== '') open.children['#text'] = open.text;
  return open.children;
}

/** The end of a start tag: the first '>' outside a quoted attribute value. */
function tagEnd(xml: string, from: number): number {
  for (let i = from; i < xml.length; i++) {
    const c = xml.charCodeAt(i);
    if (c === 62 /* > */) return i;
    if (c === 34 /* " */ || c === 39 /* ' */) {
      const close = xml.indexOf(c === 34 ? '"' : "'", i + 1);
      if (close === -1) break;
      i = close;
    }
  }
  throw new XmlSyntaxError('a start tag does not end');
}

function skipPast(xml: string, from: number, end: string, what: string): number {
  const at = xml.indexOf(end, from);
  if (at === -1) throw new XmlSyntaxError(`${what} does not end`);
  return at + end.length;
}

const NAME_END = /[\s/>]/g;
const VALID_NAME = /^[A-Za-z_][\w.:-]*$/;

export function parseXml(xml: string): XmlNode {
  const root: Open = { name: '', children: undefined, text: '' };
  const stack: Open[] = [root];
  let at = 0;
  while (at < xml.length) {
    const lt = xml.indexOf('<', at);
    const textEnd = lt === -1 ? xml.length : lt;
    if (textEnd > at && stack.length > 1) {
      const piece = xml.slice(at, textEnd).trim();
      if (piece !== '') stack[stack.length - 1].text += decode(piece);
    }
    if (lt === -1) break;
    const next = xml.charCodeAt(lt + 1);
    if (next === 63 /* ? */) {
      at = skipPast(xml, lt + 2, '?>', 'a processing instruction');
    } else if (next === 33 /* ! */) {
      if (xml.startsWith('<!--', lt)) at = skipPast(xml, lt + 4, '-->', 'a comment');
      else if (xml.startsWith('<![CDATA[', lt)) {
        const end = xml.indexOf(']]>', lt + 9);
        if (end === -1) throw new XmlSyntaxError('a CDATA section does not end');
        if (stack.length > 1) stack[stack.length - 1].text += xml.slice(lt + 9, end);
        at = end + 3;
      } else at = tagEnd(xml, lt + 2) + 1;
    } else if (next === 47 /* / */) {
      const end = xml.indexOf('>', lt + 2);
      if (end === -1) throw new XmlSyntaxError('an end tag does not end');
      const name = xml.slice(lt + 2, end).trim();
      const open = stack.pop()!;
      if (stack.length === 0 || open.name !== name) throw new XmlSyntaxError(`</${name}> closes ${open.name ? `<${open.name}>` : 'no element'}`);
      add(stack[stack.length - 1], name, valueOf(open));
      at = end + 1;
    } else {
      const end = tagEnd(xml, lt + 1);
      NAME_END.lastIndex = lt + 1;
      const nameEnd = NAME_END.exec(xml)?.index ?? end;
      const name = xml.slice(lt + 1, Math.min(nameEnd, end));
      if (!VALID_NAME.test(name)) throw new XmlSyntaxError(`<${name}> is not an element name`);
      if (xml.charCodeAt(end - 1) === 47 /* / */) add(stack[stack.length - 1], name, '');
      else stack.push({ name, children: undefined, text: '' });
      at = end + 1;
    }
  }
  if (stack.length > 1) throw new XmlSyntaxError(`<${stack[stack.length - 1].name}> does not close`);
  return root.children ?? {};
}

/** Walks a path of element names; undefined when any step is missing. */
export function pick(node: XmlValue | undefined, ...path: string[]): XmlValue | undefined {
  let cur: XmlValue | undefined = node;
  for (const step of path) {
    if (cur === undefined || typeof cur === 'string' || Array.isArray(cur)) return undefined;
    cur = Object.prototype.hasOwnProperty.call(cur, step) ? cur[step] : undefined;
  }
  return cur;
}

/** A text value; an empty element parses as '' and a missing one as undefined. */
export function text(node: XmlValue | undefined, ...path: string[]): string | undefined {
  const v = pick(node, ...path);
  return typeof v === 'string' ? v : undefined;
}

/** The elements of a `<item>`/`<member>` list under `path` (an empty list element parses as '' → []). */
export function list(node: XmlValue | undefined, ...path: string[]): XmlNode[] {
  const v = pick(node, ...path);
  if (!Array.isArray(v)) return [];
  return v.filter((x): x is XmlNode => typeof x === 'object' && !Array.isArray(x));
}
