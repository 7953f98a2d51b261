/**
 * Canonical layout of an HCL document, as `terraform fmt` / hclwrite.Format lays it out: two spaces per
 * nesting level, one space around `=` and after `,`, none inside brackets, the `=` of consecutive
 * attribute lines aligned, runs of blank lines made one, and one newline at the end. It works on tokens,
 * never on values, so comments, heredocs and the order of everything are kept; line breaks are kept too.
 * The text must parse: the HCL reader finds its comments, strings and heredocs.
 */
import { lexicalSpans } from './syntax.js';

type Kind = 'comment' | 'string' | 'heredoc' | 'open' | 'close' | 'comma' | 'equals' | 'colon' | 'word';

interface Token {
  kind: Kind;
  text: string;
}

const PUNCTUATION: Record<string, Kind> = { '{': 'open', '[': 'open', '(': 'open', '}': 'close', ']': 'close', ')': 'close', ',': 'comma', ':': 'colon' };

/**
 * The tokens of each line; a comment or heredoc that spans lines is one token of the line it starts on.
 * Comments, strings and heredocs are where the parser found them; between them only punctuation and words.
 */
function tokenLines(text: string): Token[][] {
  const spans = lexicalSpans(text, 'policy.hcl');
  const lines: Token[][] = [[]];
  const push = (kind: Kind, s: string) => lines[lines.length - 1].push({ kind, text: s });
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    const span = spans.get(i);
    if (span) {
      const written = text.slice(i, span.end);
      push(span.kind, span.kind === 'string' ? written : span.kind === 'comment' ? written.trimEnd() : written.replace(/[ \t\r]+$/, ''));
      i = span.end;
    } else if (c === '\n') {
      lines.push([]);
      i++;
    } else if (c === ' ' || c === '\t' || c === '\r') i++;
    else if (c === '=' && text[i + 1] !== '=' && text[i + 1] !== '>' && !'!<>='.includes(text[i - 1] ?? '')) {
      push('equals', '=');
      i++;
    } else if (PUNCTUATION[c]) {
      push(PUNCTUATION[c], c);
      i++;
    } else {
      let end = i + 1;
      while (end < text.length && !/[\s{}[\](),:="#]/.test(text[end]) && !spans.has(end)) end++;
      push('word', text.slice(i, end));
      i = end;
    }
  }
  return lines;
}

function spaceBetween(prev: Token, next: Token): string {
  if (next.kind === 'comma') return '';
  if (next.kind === 'close') return prev.kind === 'open' || next.text !== '}' ? '' : ' ';
  if (prev.kind === 'open') return prev.text === '{' ? ' ' : '';
  if (next.kind === 'open' && next.text === '(' && prev.kind === 'word') return '';
  return ' ';
}

function render(tokens: Token[]): string {
  let out = '';
  tokens.forEach((t, i) => (out += (i === 0 ? '' : spaceBetween(tokens[i - 1], t)) + t.text));
  return out;
}

/** Whether a line is `key = ...`, whose `=` is aligned with its neighbours'. */
const isAttribute = (tokens: Token[]) => tokens.length >= 2 && (tokens[0].kind === 'word' || tokens[0].kind === 'string') && tokens[1].kind === 'equals';

export function formatHcl(text: string): string {
  const lines = tokenLines(text);
  const out: Array<{ indent: number; tokens: Token[] }> = [];
  let depth = 0;
  for (const tokens of lines) {
    let leadingCloses = 0;
    while (leadingCloses < tokens.length && tokens[leadingCloses].kind === 'close') leadingCloses++;
    out.push({ indent: Math.max(0, depth - leadingCloses), tokens });
    for (const t of tokens) depth += t.kind === 'open' ? 1 : t.kind === 'close' ? -1 : 0;
  }

  const keyWidth = new Map<number, number>();
  for (let start = 0; start < out.length; ) {
    let end = start;
    while (end < out.length && isAttribute(out[end].tokens) && out[end].indent === out[start].indent) end++;
    if (end === start) {
      start++;
      continue;
    }
    const width = Math.max(...out.slice(start, end).map((l) => l.tokens[0].text.length));
    for (let i = start; i < end; i++) keyWidth.set(i, width);
    start = end;
  }

  const rendered = out.map(({ indent, tokens }, i) => {
    if (tokens.length === 0) return '';
    const pad = '  '.repeat(indent);
    const width = keyWidth.get(i);
    if (width === undefined) return pad + render(tokens);
    return `${pad}${tokens[0].text.padEnd(width)} = ${render(tokens.slice(2))}`.trimEnd();
  });
  // Blank lines are dropped at the start and end, and a run of them is made one; a heredoc's own are kept.
  const kept = rendered.filter((line, i) => line !== '' || (i > 0 && rendered[i - 1] !== '' && rendered.slice(i).some((l) => l !== '')));
  return kept.join('\n') + '\n';
}
