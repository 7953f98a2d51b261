/** Tiny XML writer for the query-protocol answers (element trees as nested arrays). */

export type XmlValue = string | number | boolean | null | undefined | XmlNode[] | XmlNode;
export interface XmlNode {
  tag: string;
  value?: XmlValue;
  attrs?: Record<string, string>;
}

export function esc(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;');
}

export function el(tag: string, value?: XmlValue, attrs?: Record<string, string>): XmlNode {
  return { tag, value, attrs };
}

function render(n: XmlNode, indent: string): string {
  const a = n.attrs ? Object.entries(n.attrs).map(([k, v]) => ` ${k}="${esc(v)}"`).join('') : '';
  const v = n.value;
  if (v === undefined || v === null || (Array.isArray(v) && v.length === 0)) return `${indent}<${n.tag}${a}/>`;
  if (Array.isArray(v)) return `${indent}<${n.tag}${a}>\n${v.map((c) => render(c, indent + '  ')).join('\n')}\n${indent}</${n.tag}>`;
  if (typeof v === 'object') return `${indent}<${n.tag}${a}>\n${render(v, indent + '  ')}\n${indent}</${n.tag}>`;
  return `${indent}<${n.tag}${a}>${esc(String(v))}</${n.tag}>`;
}

/** EC2 answers carry an XML declaration; IAM and STS answers start directly with the root element. */
export function xmlDoc(root: XmlNode, declaration: boolean): string {
  return `${declaration ? '<?xml version="1.0" encoding="UTF-8"?>\n' : ''}${render(root, '')}\n`;
}

/** The namespace each service's answers are written in. */
export const NS = {
  ec2: 'http://ec2.amazonaws.com/doc/2016-11-15/',
  iam: 'https://iam.amazonaws.com/doc/2010-05-08/',
  sts: 'https://sts.amazonaws.com/doc/2011-06-15/',
} as const;
