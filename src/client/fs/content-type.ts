/**
 * The ContentType of `fs stat`, as Nomad fills it: Go's http.DetectContentType on the first 512 bytes,
 * `application/json` for a `.json` name. This covers the signatures tasks' files commonly have (text,
 * HTML, XML, PDF, images, archives); anything else with binary bytes is application/octet-stream, as Go
 * answers for what it does not recognise.
 */

/** How much of a file Go's sniffing looks at. */
export const SNIFF_BYTES = 512;

const SIGNATURES: Array<[prefix: Buffer, type: string]> = [
  [Buffer.from('%PDF-'), 'application/pdf'],
  [Buffer.from('%!PS-Adobe-'), 'application/postscript'],
  [Buffer.from([0xfe, 0xff]), 'text/plain; charset=utf-16be'],
  [Buffer.from([0xff, 0xfe]), 'text/plain; charset=utf-16le'],
  [Buffer.from([0xef, 0xbb, 0xbf]), 'text/plain; charset=utf-8'],
  [Buffer.from('GIF87a'), 'image/gif'],
  [Buffer.from('GIF89a'), 'image/gif'],
  [Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), 'image/png'],
  [Buffer.from([0xff, 0xd8, 0xff]), 'image/jpeg'],
  [Buffer.from('BM'), 'image/bmp'],
  [Buffer.from([0x50, 0x4b, 0x03, 0x04]), 'application/zip'],
  [Buffer.from([0x1f, 0x8b, 0x08]), 'application/x-gzip'],
  [Buffer.from('Rar!\x1a\x07'), 'application/x-rar-compressed'],
  [Buffer.from([0x00, 0x61, 0x73, 0x6d]), 'application/wasm'],
];

/** Go's htmlSig list: a tag (case-insensitive) after leading whitespace, then a space or `>`. */
const HTML_TAGS = ['<!DOCTYPE HTML', '<HTML', '<HEAD', '<SCRIPT', '<IFRAME', '<H1', '<DIV', '<FONT', '<TABLE', '<A', '<STYLE', '<TITLE', '<B', '<BODY', '<BR', '<P', '<!--'];

const isWhitespace = (b: number) => b === 0x09 || b === 0x0a || b === 0x0c || b === 0x0d || b === 0x20;
/** Go's isBinary bytes: control characters other than tab, newline, form feed, carriage return and escape. */
const isBinary = (b: number) => b <= 0x08 || b === 0x0b || (b >= 0x0e && b <= 0x1a) || (b >= 0x1c && b <= 0x1f);

export function detectContentType(head: Buffer): string {
  const data = head.subarray(0, SNIFF_BYTES);
  let i = 0;
  while (i < data.length && isWhitespace(data[i])) i++;
  const text = data.subarray(i).toString('latin1').toUpperCase();
  for (const tag of HTML_TAGS) {
    const after = text.charCodeAt(tag.length);
    if (text.startsWith(tag) && (after === 0x20 || after === 0x3e)) return 'text/html; charset=utf-8';
  }
  if (text.startsWith('<?XML')) return 'text/xml; charset=utf-8';
  for (const [prefix, type] of SIGNATURES) if (data.subarray(0, prefix.length).equals(prefix)) return type;
  return data.some(isBinary) ? 'application/octet-stream' : 'text/plain; charset=utf-8';
}
