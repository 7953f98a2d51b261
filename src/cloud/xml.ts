/**
 * Parsing of the provider's query-protocol answers. Every value stays a string (parseTagValue off):
 * account IDs have leading zeros and key IDs can look numeric. EC2 lists are `<item>`, IAM/STS lists
 * `<member>`; both always become arrays so a one-element list has the same shape as a longer one.
 */
import { XMLParser } from 'fast-xml-parser';

export type XmlNode = { [key: string]: XmlValue };
export type XmlValue = string | XmlNode | XmlValue[];

const parser = new XMLParser({
  ignoreAttributes: true,
  parseTagValue: false,
  isArray: (name: string) => name === 'item' || name === 'member',
});

export function parseXml(text: string): XmlNode {
  const doc = parser.parse(text) as XmlNode;
  delete doc['?xml'];
  return doc;
}

/** Walks a path of element names; undefined when any step is missing. */
export function pick(node: XmlValue | undefined, ...path: string[]): XmlValue | undefined {
  let cur: XmlValue | undefined = node;
  for (const step of path) {
    if (cur === undefined || typeof cur === 'string' || Array.isArray(cur)) return undefined;
    cur = cur[step];
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
