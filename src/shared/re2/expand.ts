/**
 * Go's Regexp.Expand, the replacement syntax of ReplaceAllString (and so of Nomad's, Terraform's and
 * consul-template's replace functions): `$1`, `${1}`, `$name`, `${name}`, `$$` for a dollar. `$name` takes
 * the longest name it can (`$1x` is `${1x}`); a reference to a group that does not exist or did not take
 * part in the match is empty; a `$` that starts no reference is kept.
 */

const REFERENCE = /^\$(?:\{([\p{L}\p{Nd}_]+)\}|([\p{L}\p{Nd}_]+))/u;

/** `match` holds the groups by number; `names` the group names by number ('' when unnamed). */
export function expand(template: string, match: readonly (string | undefined)[], names: readonly string[]): string {
  let out = '';
  let i = 0;
  while (i < template.length) {
    const dollar = template.indexOf('$', i);
    if (dollar < 0) break;
    out += template.slice(i, dollar);
    if (template[dollar + 1] === '$') {
      out += '$';
      i = dollar + 2;
      continue;
    }
    const ref = REFERENCE.exec(template.slice(dollar));
    if (!ref) {
      out += '$';
      i = dollar + 1;
      continue;
    }
    out += group(ref[1] ?? ref[2], match, names) ?? '';
    i = dollar + ref[0].length;
  }
  return out + template.slice(i);
}

function group(name: string, match: readonly (string | undefined)[], names: readonly string[]): string | undefined {
  // A number without leading zeros names a group by position; anything else by name, the first such group
  // that took part in the match winning.
  if (/^(?:0|[1-9]\d{0,7})$/.test(name)) return match[Number(name)];
  for (let i = 1; i < names.length; i++) if (names[i] === name && match[i] !== undefined) return match[i];
  return undefined;
}
