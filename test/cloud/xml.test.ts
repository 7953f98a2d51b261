/**
 * The query-protocol answer reader: the tree shapes the clients read (lists always arrays, repeated
 * elements arrays, text trimmed and its entities decoded, empty elements ''), and malformed text refused.
 */
import { describe, expect, it } from 'vitest';
import { list, parseXml, text, XmlSyntaxError } from '../../src/cloud/xml.js';

describe('parseXml', () => {
  it('reads elements, lists, repeated elements, entities, CDATA and empty elements as the clients expect', () => {
    const doc = parseXml(
      '<?xml version="1.0" encoding="UTF-8"?>\n<R xmlns="http://x/"><a>  one &amp; &lt;two&gt; &quot;&apos; </a><b/><c></c>' +
        '<d><item><k>1</k></item></d><e>t<f>2</f>u</e><g>1</g><g>2</g><g>3</g><h><![CDATA[ <z> ]]></h><i>   </i><!-- note -->' +
        '<j><item/></j><l a="1>" b=\'2\'>v</l><m><member>x</member><member>y</member></m></R>',
    );
    expect(doc).toEqual({
      R: {
        a: 'one & <two> "\'',
        b: '',
        c: '',
        d: { item: [{ k: '1' }] },
        e: { f: '2', '#text': 'tu' },
        g: ['1', '2', '3'],
        h: ' <z> ',
        i: '',
        j: { item: [''] },
        l: 'v',
        m: { member: ['x', 'y'] },
      },
    });
    expect(list(doc, 'R', 'd', 'item').map((i) => text(i, 'k'))).toEqual(['1']);
    expect(list(doc, 'R', 'j', 'item')).toEqual([]);
  });

  it('keeps an element named like an Object property as data', () => {
    const doc = parseXml('<R><__proto__>p</__proto__><constructor>c</constructor><toString/></R>');
    expect(text(doc, 'R', '__proto__')).toBe('p');
    expect(text(doc, 'R', 'constructor')).toBe('c');
    expect(text(doc, 'R', 'toString')).toBe('');
    expect(text(doc, 'R', 'hasOwnProperty')).toBeUndefined();
    expect(Object.getPrototypeOf((doc as { R: object }).R)).toBe(Object.prototype);
  });

  it('refuses a tag that does not close, closes the wrong element or is not a tag', () => {
    for (const bad of ['<<not xml', '<a><b>1</a>', '<a>', '<a></b>', '</a>', '<a b="1></a>', '<a><!-- open</a>']) {
      expect(() => parseXml(bad), bad).toThrow(XmlSyntaxError);
    }
  });

  it('reads text with no element in it as an empty document', () => {
    expect(parseXml('this is not xml')).toEqual({});
    expect(parseXml('')).toEqual({});
  });
});
