/**
 * Canonical layout of an HCL document, as `terraform fmt` / hclwrite.Format lays it out: two spaces per
 * nesting level, one space around `=` and after `,`, none inside brackets, the `=` of consecutive
 * attribute lines aligned, runs of blank lines made one, and one newline at the end. It works on tokens,
 * never on values, so comments, heredocs and the order of everything are kept; line breaks are kept too.
 * The caller checks that the text parses first: on text that does not, the layout is unspecified.
 */

type Kind = 'comment' | 'string' | 'heredoc' | 'open' | 'close' | 'comma' | 'equals' | 'colon' | 'word';

interface Token {
  kind: Kind;
  text: string;
}

const PUNCTUATION: Record<string, Kind> = { '{': 'open', '[': 'open', '(': 'open', '}': 'close', ']': 'close', ')': 'close', ',': 'comma', ':': 'colon' };

/** The end of the quoted string starting at `start`, past `${...}` and `%{...}` that may hold quotes. */
function stringEnd(text: string, start: number): number {
  let i = start + 1;
  let depth = 0;
  while (i < text.length) {
    const c = text[i];
    if (c === '\\') i += 2;
    else if ((c === '$' || c === '%') && text[i + 1] === '{') {
      depth++;
      i += 2;
    } else if (depth > 0 && c === '}') {
      depth--;
      i++;
    } else if (depth > 0 && c === '"') i = stringEnd(text, i);
    else if (depth === 0 && (c === '"' || c === '\n')) return i + 1;
    else i++;
  }
  return i;
}

/** The tokens of each line; a comment or heredoc that spans lines is one token of the line it starts on. */
function tokenLines(text: string): Token[][] {
  const lines: Token[][] = [[]];
  const push = (kind: Kind, s: string) => lines[lines.length - 1].push({ kind, text: s });
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (c === '\n') {
      lines.push([]);
      i++;
    } else if (c === ' ' || c === '\t' || c === '\r') i++;
    else if (c === '#' || (c === '/' && text[i + 1] === '/')) {
      const end = text.indexOf('\n', i);
      push('comment', text.slice(i, end === -1 ? text.length : end).trimEnd());
      i = end === -1 ? text.length : end;
    } else if (c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      const stop = end === -1 ? text.length : end + 2;
      push('comment', text.slice(i, stop));
      i = stop;
    } else if (c === '"') {
      const end = stringEnd(text, i);
      push('string', text.slice(i, end));
      i = end;
    } else if (c === '<' && text[i + 1] === '<' && /^<<-?[A-Za-z_]/.test(text.slice(i, i + 4))) {
      const marker = /^<<-?([A-Za-z_][\w-]*)/.exec(text.slice(i))![1];
      const close = new RegExp(`\\n[ \\t]*${marker}[ \\t]*(?=\\r?\\n|$)`, 'g');
      close.lastIndex = i;
      const found = close.exec(text);
      const stop = found ? found.index + found[0].length : text.length;
      push('heredoc', text.slice(i, stop).replace(/[ \t]+$/, ''));
      i = stop;
    } else if (c === '=' && text[i + 1] !== '=' && text[i + 1] !== '>' && !'!<>='.includes(text[i - 1] ?? '')) {
      push('equals', '=');
      i++;
    } else if (PUNCTUATION[c]) {
      push(PUNCTUATION[c], c);
      i++;
    } else {
      const m = /^[^\s{}[\](),:="#]+/.exec(text.slice(i));
      const word = m ? m[0] : c;
      // `//` and `/*` inside a word start a comment: stop the word there.
      const cut = word.search(/\/[/*]/);
      const taken = cut > 0 ? word.slice(0, cut) : word;
      push('word', taken);
      i += taken.length;
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
