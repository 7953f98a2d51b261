/**
 * How Go prints values, as far as templates show them: `{{ x }}` (fmt's %v, with `<no value>` for
 * nothing), `printf` verbs, `strconv.Quote`, and `encoding/json`'s output (sorted keys, HTML escaping).
 *
 * Values are JavaScript's: strings, numbers, booleans, null/undefined (Go's nil), arrays and plain objects
 * (maps). A number with an integral value prints as a Go int; Go would print a float64 from parseJSON
 * such as 1000000 as 1e+06, which svc does not reproduce.
 */

export type Value = unknown;

export const isMap = (v: Value): v is Record<string, Value> => typeof v === 'object' && v !== null && !Array.isArray(v);

export const isNil = (v: Value): v is null | undefined => v === null || v === undefined;

/** The Go type name of a value, for error messages and `%!verb(type=value)`. */
export function goType(v: Value): string {
  if (isNil(v)) return '<nil>';
  if (typeof v === 'string') return 'string';
  if (typeof v === 'boolean') return 'bool';
  if (typeof v === 'number') return Number.isInteger(v) ? 'int' : 'float64';
  if (Array.isArray(v)) return '[]interface {}';
  return 'map[string]interface {}';
}

/** Go's `%g` (shortest when `prec` is negative). */
function formatG(x: number, prec: number, upper = false): string {
  if (!Number.isFinite(x)) return Number.isNaN(x) ? 'NaN' : x > 0 ? '+Inf' : '-Inf';
  let mantissa: string;
  let exp: number;
  let eprec: number;
  if (prec < 0) {
    [mantissa, exp] = splitExp(x.toExponential());
    // Shortest: as many digits as the value needs; %e from an exponent of 6 up, or below -4.
    eprec = 6;
  } else {
    const p = prec === 0 ? 1 : prec;
    [mantissa, exp] = splitExp(x.toExponential(p - 1));
    mantissa = mantissa.includes('.') ? mantissa.replace(/0+$/, '').replace(/\.$/, '') : mantissa;
    eprec = p;
  }
  if (exp < -4 || exp >= eprec) {
    const e = `${exp < 0 ? '-' : '+'}${String(Math.abs(exp)).padStart(2, '0')}`;
    return `${mantissa}${upper ? 'E' : 'e'}${e}`;
  }
  if (prec < 0) return String(x);
  return trimFraction(x.toFixed(Math.max(0, eprec - 1 - exp)));
}

function trimFraction(s: string): string {
  return s.includes('.') ? s.replace(/0+$/, '').replace(/\.$/, '') : s;
}

function splitExp(s: string): [string, number] {
  const [m, e] = s.split('e');
  return [m, Number(e)];
}

function formatE(x: number, prec: number, upper: boolean): string {
  if (!Number.isFinite(x)) return formatG(x, -1);
  const [m, exp] = splitExp(x.toExponential(prec));
  return `${m}${upper ? 'E' : 'e'}${exp < 0 ? '-' : '+'}${String(Math.abs(exp)).padStart(2, '0')}`;
}

function formatNumber(n: number): string {
  if (Number.isInteger(n) && Math.abs(n) < 1e21) return n.toFixed(0);
  return formatG(n, -1);
}

/** fmt's `%v`; `top` is the template's own printing, where nil is `<no value>` rather than `<nil>`. */
export function formatValue(v: Value, top = true): string {
  if (isNil(v)) return top ? '<no value>' : '<nil>';
  if (typeof v === 'string') return v;
  if (typeof v === 'number') return formatNumber(v);
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (Array.isArray(v)) return `[${v.map((x) => formatValue(x, false)).join(' ')}]`;
  if (isMap(v)) {
    const keys = Object.keys(v).sort();
    return `map[${keys.map((k) => `${k}:${formatValue(v[k], false)}`).join(' ')}]`;
  }
  return String(v);
}

/** Go's strconv.Quote. */
export function goQuote(s: string): string {
  let out = '"';
  for (const ch of s) {
    const cp = ch.codePointAt(0)!;
    switch (ch) {
      case '"':
        out += '\\"';
        continue;
      case '\\':
        out += '\\\\';
        continue;
      case '\n':
        out += '\\n';
        continue;
      case '\t':
        out += '\\t';
        continue;
      case '\r':
        out += '\\r';
        continue;
      case '\x07':
        out += '\\a';
        continue;
      case '\b':
        out += '\\b';
        continue;
      case '\f':
        out += '\\f';
        continue;
      case '\v':
        out += '\\v';
        continue;
    }
    if (cp < 0x20 || cp === 0x7f) out += `\\x${cp.toString(16).padStart(2, '0')}`;
    else if (/[\p{Cc}\p{Cf}\p{Co}\p{Cn}\p{Zl}\p{Zp}]/u.test(ch)) out += cp > 0xffff ? `\\U${cp.toString(16).padStart(8, '0')}` : `\\u${cp.toString(16).padStart(4, '0')}`;
    else out += ch;
  }
  return `${out}"`;
}

/** encoding/json's Marshal (sorted map keys; `<`, `>`, `&` escaped unless `escapeHTML` is false). */
export function goJSON(v: Value, opts: { escapeHTML?: boolean; indent?: string } = {}): string {
  const escapeHTML = opts.escapeHTML ?? true;
  const indent = opts.indent ?? '';
  const str = (s: string): string => {
    let out = '"';
    for (const ch of s) {
      const cp = ch.codePointAt(0)!;
      if (ch === '"') out += '\\"';
      else if (ch === '\\') out += '\\\\';
      else if (ch === '\n') out += '\\n';
      else if (ch === '\r') out += '\\r';
      else if (ch === '\t') out += '\\t';
      else if (cp < 0x20 || (escapeHTML && (ch === '<' || ch === '>' || ch === '&')) || cp === 0x2028 || cp === 0x2029) {
        out += `\\u${cp.toString(16).padStart(4, '0')}`;
      } else out += ch;
    }
    return `${out}"`;
  };
  const walk = (x: Value, depth: number): string => {
    if (isNil(x)) return 'null';
    if (typeof x === 'string') return str(x);
    if (typeof x === 'number') {
      if (!Number.isFinite(x)) throw new Error(`json: unsupported value: ${formatG(x, -1)}`);
      return JSON.stringify(x);
    }
    if (typeof x === 'boolean') return x ? 'true' : 'false';
    const nl = indent ? `\n${indent.repeat(depth + 1)}` : '';
    const close = indent ? `\n${indent.repeat(depth)}` : '';
    if (Array.isArray(x)) {
      if (x.length === 0) return '[]';
      return `[${x.map((e) => nl + walk(e, depth + 1)).join(',')}${close}]`;
    }
    if (isMap(x)) {
      const keys = Object.keys(x).sort();
      if (keys.length === 0) return '{}';
      const sep = indent ? ': ' : ':';
      return `{${keys.map((k) => `${nl}${str(k)}${sep}${walk(x[k], depth + 1)}`).join(',')}${close}}`;
    }
    return str(String(x));
  };
  return walk(v, 0);
}

interface Spec {
  minus: boolean;
  plus: boolean;
  sharp: boolean;
  space: boolean;
  zero: boolean;
  width?: number;
  prec?: number;
}

const bad = (verb: string, v: Value): string => (isNil(v) ? `%!${verb}(<nil>)` : `%!${verb}(${goType(v)}=${formatValue(v, false)})`);

function pad(s: string, spec: Spec, numeric: boolean): string {
  const w = spec.width ?? 0;
  const len = [...s].length;
  if (len >= w) return s;
  if (spec.minus) return s + ' '.repeat(w - len);
  if (spec.zero && numeric) {
    const sign = /^[+\- ]/.test(s) ? s[0] : '';
    return sign + '0'.repeat(w - len) + s.slice(sign.length);
  }
  return ' '.repeat(w - len) + s;
}

function signed(s: string, n: number, spec: Spec): string {
  if (n >= 0 && !s.startsWith('-')) {
    if (spec.plus) return `+${s}`;
    if (spec.space) return ` ${s}`;
  }
  return s;
}

function integer(v: Value, verb: string, spec: Spec): string {
  if (typeof v !== 'number' || !Number.isInteger(v)) {
    if (typeof v === 'string' && (verb === 'x' || verb === 'X')) {
      const hex = Buffer.from(v, 'utf8').toString('hex');
      return pad(verb === 'X' ? hex.toUpperCase() : hex, spec, false);
    }
    return bad(verb, v);
  }
  const abs = Math.abs(v);
  let digits: string;
  switch (verb) {
    case 'd':
      digits = abs.toFixed(0);
      break;
    case 'b':
      digits = abs.toString(2);
      break;
    case 'o':
      digits = (spec.sharp ? '0' : '') + abs.toString(8);
      break;
    case 'x':
      digits = (spec.sharp ? '0x' : '') + abs.toString(16);
      break;
    default:
      digits = (spec.sharp ? '0X' : '') + abs.toString(16).toUpperCase();
  }
  if (spec.prec !== undefined) digits = digits.padStart(spec.prec, '0');
  return pad(signed(v < 0 ? `-${digits}` : digits, v, spec), spec, spec.prec === undefined);
}

function float(v: Value, verb: string, spec: Spec): string {
  if (typeof v !== 'number') return bad(verb, v);
  let s: string;
  switch (verb) {
    case 'f':
    case 'F':
      s = Number.isFinite(v) ? v.toFixed(spec.prec ?? 6) : formatG(v, -1);
      break;
    case 'e':
    case 'E':
      s = formatE(v, spec.prec ?? 6, verb === 'E');
      break;
    default:
      s = formatG(v, spec.prec ?? -1, verb === 'G');
  }
  return pad(signed(s, v, spec), spec, true);
}

function one(verb: string, v: Value, spec: Spec): string {
  switch (verb) {
    case 'v':
      if (spec.sharp && typeof v === 'string') return pad(goQuote(v), spec, false);
      return pad(typeof v === 'number' ? signed(formatValue(v, false), v, spec) : formatValue(v, false), spec, typeof v === 'number');
    case 's':
      if (typeof v === 'string') return pad(spec.prec !== undefined ? [...v].slice(0, spec.prec).join('') : v, spec, false);
      if (Array.isArray(v) && v.every((x) => typeof x === 'string')) return pad(`[${v.join(' ')}]`, spec, false);
      return bad(verb, v);
    case 'q':
      if (typeof v === 'string') return pad(goQuote(v), spec, false);
      if (typeof v === 'number' && Number.isInteger(v)) return pad(`'${String.fromCodePoint(v)}'`, spec, false);
      return bad(verb, v);
    case 't':
      return typeof v === 'boolean' ? pad(String(v), spec, false) : bad(verb, v);
    case 'c':
      return typeof v === 'number' && Number.isInteger(v) ? pad(String.fromCodePoint(v), spec, false) : bad(verb, v);
    case 'U':
      return typeof v === 'number' && Number.isInteger(v) ? pad(`U+${v.toString(16).toUpperCase().padStart(4, '0')}`, spec, false) : bad(verb, v);
    case 'd':
    case 'b':
    case 'o':
    case 'x':
    case 'X':
      return integer(v, verb, spec);
    case 'e':
    case 'E':
    case 'f':
    case 'F':
    case 'g':
    case 'G':
      return float(v, verb, spec);
    default:
      return `%!${verb}(${goType(v)}=${formatValue(v, false)})`;
  }
}

/** fmt.Sprintf with Go's verbs, flags, width and precision, and its in-band error notes. */
export function sprintf(format: string, args: Value[]): string {
  let out = '';
  let argi = 0;
  let i = 0;
  const nextInt = (): number | undefined => {
    const v = args[argi++];
    return typeof v === 'number' && Number.isInteger(v) ? v : undefined;
  };
  while (i < format.length) {
    const c = format[i];
    if (c !== '%') {
      out += c;
      i++;
      continue;
    }
    i++;
    const spec: Spec = { minus: false, plus: false, sharp: false, space: false, zero: false };
    for (; i < format.length; i++) {
      const f = format[i];
      if (f === '-') spec.minus = true;
      else if (f === '+') spec.plus = true;
      else if (f === '#') spec.sharp = true;
      else if (f === ' ') spec.space = true;
      else if (f === '0') spec.zero = !spec.minus;
      else break;
    }
    if (format[i] === '*') {
      i++;
      spec.width = nextInt();
      if (spec.width !== undefined && spec.width < 0) {
        spec.minus = true;
        spec.width = -spec.width;
      }
    } else {
      const m = /^\d+/.exec(format.slice(i));
      if (m) {
        spec.width = Number(m[0]);
        i += m[0].length;
      }
    }
    if (format[i] === '.') {
      i++;
      if (format[i] === '*') {
        i++;
        spec.prec = nextInt();
      } else {
        const m = /^\d*/.exec(format.slice(i))!;
        spec.prec = Number(m[0] || '0');
        i += m[0].length;
      }
    }
    const verb = String.fromCodePoint(format.codePointAt(i) ?? 0);
    if (i >= format.length) {
      out += '%!(NOVERB)';
      break;
    }
    i += verb.length;
    if (verb === '%') {
      out += '%';
      continue;
    }
    if (argi >= args.length) {
      out += `%!${verb}(MISSING)`;
      continue;
    }
    out += one(verb, args[argi++], spec);
  }
  if (argi < args.length) {
    out += `%!(EXTRA ${args
      .slice(argi)
      .map((a) => (isNil(a) ? '<nil>' : `${goType(a)}=${formatValue(a, false)}`))
      .join(', ')})`;
  }
  return out;
}

/** fmt.Sprint: spaces between operands when neither side is a string. */
export function sprint(args: Value[]): string {
  let out = '';
  args.forEach((a, i) => {
    if (i > 0 && typeof a !== 'string' && typeof args[i - 1] !== 'string') out += ' ';
    out += formatValue(a, false);
  });
  return out;
}

export function sprintln(args: Value[]): string {
  return `${args.map((a) => formatValue(a, false)).join(' ')}\n`;
}
