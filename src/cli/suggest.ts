/**
 * "Did you mean" for a mistyped command word or flag: the known words within a small edit distance of it
 * (a third of its length, at least one edit), closest first, as git and the HashiCorp CLIs suggest.
 */

/** Levenshtein distance, with a transposition of two neighbours counted as one edit (`jbo` → `job`). */
export function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.length][b.length];
}

/** Up to three of `known` close to `word`, closest first (then in alphabetical order). */
export function suggestions(word: string, known: Iterable<string>): string[] {
  const limit = Math.max(1, Math.floor(word.length / 3));
  return [...new Set(known)]
    .map((k) => ({ k, d: editDistance(word, k) }))
    .filter(({ k, d }) => d <= limit || (word.length >= 3 && k.startsWith(word)))
    .sort((x, y) => x.d - y.d || (x.k < y.k ? -1 : 1))
    .slice(0, 3)
    .map(({ k }) => k);
}

/** "Did you mean X?" for one suggestion (`one` dresses it), an indented list for several, nothing for none. */
function hint(found: string[], one: (f: string) => string = (f) => f): string {
  if (found.length === 0) return '';
  return found.length === 1 ? `\nDid you mean ${one(found[0])}?` : `\nDid you mean one of these?\n${found.map((f) => `    ${f}`).join('\n')}`;
}

/** The line that follows "Unknown command": the suggestions as full commands, or nothing. */
export function didYouMean(prefix: string[], word: string, known: Iterable<string>): string {
  return hint(
    suggestions(word, known).map((k) => `svc ${[...prefix, k].join(' ')}`),
    (f) => `"${f}"`,
  );
}

/**
 * The line that follows "flag provided but not defined: -word": the command's closest flags, or nothing.
 * A one-letter flag gets none: every other one-letter flag is one edit away from it.
 */
export function didYouMeanFlag(word: string, known: Iterable<string>): string {
  return word.length < 2 ? '' : hint(suggestions(word, known).map((k) => `-${k}`));
}
