/** A LIST's answer from the store's keys: the names right below a prefix, folders with their trailing '/'. */
export function childKeys(keys: readonly string[], prefix: string, strip: (rest: string) => string = (r) => r): string[] {
  const out = new Set<string>();
  for (const key of keys) {
    const rest = strip(key.slice(prefix.length));
    const slash = rest.indexOf('/');
    out.add(slash < 0 ? rest : rest.slice(0, slash + 1));
  }
  out.delete('');
  return [...out].sort();
}
