/**
 * Vault's policy and entity-alias globbing (go-glob, through strutil.StrListContainsGlob): "*" matches any
 * text, anywhere and any number of times; everything else is literal.
 */
export function globMatch(pattern: string, subject: string): boolean {
  if (pattern === '*') return true;
  const parts = pattern.split('*');
  if (parts.length === 1) return pattern === subject;
  const first = parts[0];
  const last = parts[parts.length - 1];
  if (!subject.startsWith(first)) return false;
  let at = first.length;
  for (const middle of parts.slice(1, -1)) {
    const found = subject.indexOf(middle, at);
    if (found === -1) return false;
    at = found + middle.length;
  }
  return subject.length - last.length >= at && subject.endsWith(last);
}

export const anyGlobMatches = (patterns: readonly string[], subject: string): boolean => patterns.some((p) => globMatch(p, subject));
