/**
 * The rendered file of a template with `env = true`, read as environment variables the way Nomad reads it
 * (hashicorp/go-envparse): `KEY=value` lines, an optional `export ` prefix, blank lines and `#` comments
 * skipped; values unquoted (trimmed, ending at `#`), 'single-quoted' (literal) or "double-quoted" (JSON
 * escapes), and these may be mixed within one value.
 */

export class EnvFileError extends Error {}

const KEY = /^[A-Za-z_][A-Za-z0-9_]*$/;

export function parseEnvFile(text: string): Record<string, string> {
  const env: Record<string, string> = {};
  text.split('\n').forEach((raw, i) => {
    const line = raw.replace(/\r$/, '');
    const trimmed = line.trim();
    if (trimmed === '' || trimmed.startsWith('#')) return;
    const eq = line.indexOf('=');
    if (eq < 0) throw new EnvFileError(`error on line ${i + 1}: missing "="`);
    let key = line.slice(0, eq).trim();
    if (key.startsWith('export ')) key = key.slice('export '.length).trim();
    if (key === '') throw new EnvFileError(`error on line ${i + 1}: empty key`);
    if (!KEY.test(key)) throw new EnvFileError(`error on line ${i + 1}: key ${JSON.stringify(key)} must be of the form [A-Za-z_][A-Za-z0-9_]*`);
    try {
      env[key] = parseValue(line.slice(eq + 1).trim());
    } catch (err) {
      throw new EnvFileError(`error on line ${i + 1}: ${(err as Error).message}`);
    }
  });
  return env;
}

function parseValue(value: string): string {
  let out = '';
  /** the length of `out` up to its last significant character: white space before a comment is dropped */
  let significant = 0;
  let mode: 'normal' | 'double' | 'single' = 'normal';
  for (let i = 0; i < value.length; i++) {
    const c = value[i];
    if (c.charCodeAt(0) < 32 && c !== '\t') throw new Error(`0x${c.charCodeAt(0).toString(16).padStart(2, '0')} is an invalid value character`);
    if (mode === 'normal') {
      if (c === '"') mode = 'double';
      else if (c === "'") mode = 'single';
      else if (c === '#') return out.slice(0, significant);
      else {
        out += c;
        if (c !== ' ' && c !== '\t') significant = out.length;
      }
    } else if (mode === 'single') {
      if (c === "'") mode = 'normal';
      else {
        out += c;
        significant = out.length;
      }
    } else if (c === '"') mode = 'normal';
    else if (c === '\\') {
      const e = value[++i];
      const simple: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', n: '\n', t: '\t', r: '\r', b: '\b', f: '\f' };
      if (e === undefined) throw new Error('incomplete escape sequence');
      if (e in simple) out += simple[e];
      else if (e === 'u' && /^[0-9a-fA-F]{4}$/.test(value.slice(i + 1, i + 5))) {
        out += String.fromCharCode(parseInt(value.slice(i + 1, i + 5), 16));
        i += 4;
      } else throw new Error(`invalid escape sequence: ${e}`);
      significant = out.length;
    } else {
      out += c;
      significant = out.length;
    }
  }
  if (mode === 'double') throw new Error('unmatched "');
  if (mode === 'single') throw new Error("unmatched '");
  return out;
}
