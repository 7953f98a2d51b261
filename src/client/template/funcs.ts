/**
 * The functions a template can call: Go's built-ins, consul-template's that need nothing but the
 * task's environment and its files, and `secret` and `secrets`, which read and list svc's own secrets API. Those that read from Consul, Vault or Nomad's own APIs are known by
 * name and refused with a message that says so, so that a job never runs with a silently empty value.
 *
 * consul-template's argument order is kept: the value a function works on comes last, so that it can be
 * piped (`{{ env "TAGS" | split "," | join ";" }}`).
 */
import { createHash } from 'node:crypto';
import { parse as parseYaml, stringify as stringifyYaml } from 'yaml';
import { type Value, formatValue, goJSON, goType, isMap, isNil, sprint, sprintf, sprintln } from './go-format.js';
import { type FuncLookup } from './parser.js';
import { type SecretDep, parseListPath, parseSecretArgs } from './secrets.js';
import { parseGoBool } from '../../shared/go-bool.js';
import { compileRe2 } from '../../shared/re2/index.js';

export interface FuncContext {
  /** the task's environment, which `env` reads */
  env: Record<string, string>;
  /** reads a file for `file`, relative to the task directory and inside the allocation */
  readFile(p: string): string;
  now(): Date;
  /** the secret at a path (a list's keys for `list`), or nil while it is being fetched (secrets.ts); absent where templates cannot read secrets */
  secret?(dep: SecretDep): Value;
}

export interface FuncDef {
  /** fixed arity, or [min, max] (max Infinity for variadic) */
  arity: number | [number, number];
  fn(ctx: FuncContext, args: Value[]): Value;
}

/** Truth as Go's templates see it: false, 0, nil and empty strings, lists and maps are false. */
export function truth(v: Value): boolean {
  if (isNil(v)) return false;
  if (typeof v === 'boolean') return v;
  if (typeof v === 'number') return v !== 0;
  if (typeof v === 'string') return v.length > 0;
  if (Array.isArray(v)) return v.length > 0;
  if (isMap(v)) return Object.keys(v).length > 0;
  return true;
}

function str(v: Value, fn: string, what = 'argument'): string {
  if (typeof v !== 'string') throw new Error(`${fn}: ${what} must be a string, got ${goType(v)}`);
  return v;
}

function num(v: Value, fn: string): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'string' && v.trim() !== '' && !Number.isNaN(Number(v))) return Number(v);
  throw new Error(`${fn}: cannot use ${formatValue(v, false)} (${goType(v)}) as a number`);
}

function list(v: Value, fn: string): Value[] {
  if (isNil(v)) return [];
  if (!Array.isArray(v)) throw new Error(`${fn}: expected a list, got ${goType(v)}`);
  return v;
}

/** eq's rules: nil equals only nil; other values must be of one basic type. */
function basicEqual(a: Value, b: Value): boolean {
  if (isNil(a) || isNil(b)) return isNil(a) && isNil(b);
  const comparable = (x: Value) => typeof x === 'string' || typeof x === 'number' || typeof x === 'boolean';
  if (!comparable(a)) throw new Error(`non-comparable type ${formatValue(a, false)}: ${goType(a)}`);
  if (!comparable(b)) throw new Error(`non-comparable type ${formatValue(b, false)}: ${goType(b)}`);
  if (typeof a !== typeof b) throw new Error('incompatible types for comparison');
  return a === b;
}

function lessThan(a: Value, b: Value): boolean {
  const ordered = (x: Value) => typeof x === 'string' || typeof x === 'number';
  if (!ordered(a) || !ordered(b)) throw new Error(`invalid type for comparison`);
  if (typeof a !== typeof b) throw new Error('incompatible types for comparison');
  return (a as number | string) < (b as number | string);
}

/** Membership as consul-template's `in`: an element of a list, or a substring of a string; else false. */
function contains(haystack: Value, needle: Value): boolean {
  if (typeof haystack === 'string') return typeof needle === 'string' && haystack.includes(needle);
  if (Array.isArray(haystack)) return haystack.some((x) => x === needle && (typeof x === 'string' || typeof x === 'number'));
  return false;
}

/** strconv.ParseInt(s, 10, 64) (or ParseUint), as consul-template's parseInt calls it. */
function parseGoInt(s: string, fn: string, unsigned = false): number {
  const ok = unsigned ? /^\d+$/ : /^[+-]?\d+$/;
  if (!ok.test(s)) throw new Error(`${fn}: strconv.Parse${unsigned ? 'Uint' : 'Int'}: parsing ${JSON.stringify(s)}: invalid syntax`);
  return parseInt(s, 10);
}

function toTitle(s: string): string {
  return s.replace(/(^|[^\p{L}\p{N}_'])(\p{L})/gu, (_, before: string, letter: string) => before + letter.toUpperCase());
}

function base64Decode(s: string, url: boolean, fn: string): string {
  const alphabet = url ? /^[A-Za-z0-9_-]*={0,2}$/ : /^[A-Za-z0-9+/]*={0,2}$/;
  if (!alphabet.test(s) || (s.length % 4 !== 0 && s.includes('='))) throw new Error(`${fn}: illegal base64 data`);
  return Buffer.from(s, url ? 'base64url' : 'base64').toString('utf8');
}

/** Go's time layout (reference time Mon Jan 2 15:04:05 MST 2006), in UTC as consul-template renders it. */
export function goTimeFormat(d: Date, layout: string): string {
  const pad = (n: number, w = 2) => String(n).padStart(w, '0');
  const months = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
  const days = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
  const h = d.getUTCHours();
  const ms = d.getUTCMilliseconds();
  const yday = Math.floor((Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()) - Date.UTC(d.getUTCFullYear(), 0, 1)) / 86_400_000) + 1;
  const tokens: [string, () => string][] = [
    ['January', () => months[d.getUTCMonth()]],
    ['Monday', () => days[d.getUTCDay()]],
    ['2006', () => pad(d.getUTCFullYear(), 4)],
    ['Z07:00', () => 'Z'],
    ['-07:00', () => '+00:00'],
    ['Z0700', () => 'Z'],
    ['-0700', () => '+0000'],
    ['.000000000', () => `.${pad(ms, 3)}000000`],
    ['.000000', () => `.${pad(ms, 3)}000`],
    ['.000', () => `.${pad(ms, 3)}`],
    ['.999999999', () => (ms ? `.${pad(ms, 3).replace(/0+$/, '')}` : '')],
    ['.999999', () => (ms ? `.${pad(ms, 3).replace(/0+$/, '')}` : '')],
    ['.999', () => (ms ? `.${pad(ms, 3).replace(/0+$/, '')}` : '')],
    ['Jan', () => months[d.getUTCMonth()].slice(0, 3)],
    ['Mon', () => days[d.getUTCDay()].slice(0, 3)],
    ['MST', () => 'UTC'],
    ['002', () => pad(yday, 3)],
    ['01', () => pad(d.getUTCMonth() + 1)],
    ['02', () => pad(d.getUTCDate())],
    ['_2', () => String(d.getUTCDate()).padStart(2, ' ')],
    ['06', () => pad(d.getUTCFullYear() % 100)],
    ['15', () => pad(h)],
    ['03', () => pad(h % 12 === 0 ? 12 : h % 12)],
    ['04', () => pad(d.getUTCMinutes())],
    ['05', () => pad(d.getUTCSeconds())],
    ['PM', () => (h >= 12 ? 'PM' : 'AM')],
    ['pm', () => (h >= 12 ? 'pm' : 'am')],
    ['1', () => String(d.getUTCMonth() + 1)],
    ['2', () => String(d.getUTCDate())],
    ['3', () => String(h % 12 === 0 ? 12 : h % 12)],
    ['4', () => String(d.getUTCMinutes())],
    ['5', () => String(d.getUTCSeconds())],
  ];
  let out = '';
  let i = 0;
  outer: while (i < layout.length) {
    for (const [tok, f] of tokens) {
      if (layout.startsWith(tok, i)) {
        out += f();
        i += tok.length;
        continue outer;
      }
    }
    out += layout[i++];
  }
  return out;
}

const variadic = (min: number): [number, number] => [min, Infinity];

function arith(fn: string, op: (a: number, b: number) => number): FuncDef {
  // consul-template's order: `{{ 5 | subtract 2 }}` is 5 - 2, so the piped value (last) is the left side.
  return { arity: 2, fn: (_c, [b, a]) => op(num(a, fn), num(b, fn)) };
}

export const FUNCS: Record<string, FuncDef> = {
  // Go's built-ins (and/or are evaluated lazily by the executor, which short-circuits them).
  and: { arity: variadic(1), fn: (_c, args) => args.find((a) => !truth(a)) ?? args[args.length - 1] },
  or: { arity: variadic(1), fn: (_c, args) => args.find((a) => truth(a)) ?? args[args.length - 1] },
  not: { arity: 1, fn: (_c, [a]) => !truth(a) },
  len: {
    arity: 1,
    fn: (_c, [a]) => {
      if (typeof a === 'string') return Buffer.byteLength(a, 'utf8');
      if (Array.isArray(a)) return a.length;
      if (isMap(a)) return Object.keys(a).length;
      throw new Error(`len of ${isNil(a) ? 'nil pointer' : `type ${goType(a)}`}`);
    },
  },
  index: {
    arity: variadic(1),
    fn: (_c, [item, ...keys]) => {
      let v = item;
      for (const k of keys) {
        if (isNil(v)) throw new Error('index of untyped nil');
        if (Array.isArray(v) || typeof v === 'string') {
          if (typeof k !== 'number' || !Number.isInteger(k)) throw new Error(`cannot index slice/array with type ${goType(k)}`);
          const len = typeof v === 'string' ? Buffer.byteLength(v) : v.length;
          if (k < 0 || k >= len) throw new Error(`index out of range: ${k}`);
          v = typeof v === 'string' ? Buffer.from(v, 'utf8')[k] : v[k];
        } else if (isMap(v)) {
          if (typeof k !== 'string') throw new Error(`value has type ${goType(k)}; should be string`);
          // A missing key is the map's zero value: nil.
          v = Object.hasOwn(v, k) ? v[k] : null;
        } else throw new Error(`can't index item of type ${goType(v)}`);
      }
      return v;
    },
  },
  slice: {
    arity: [1, 4],
    fn: (_c, [item, ...idx]) => {
      if (typeof item !== 'string' && !Array.isArray(item)) throw new Error(`can't slice item of type ${goType(item)}`);
      if (typeof item === 'string' && idx.length > 2) throw new Error('cannot 3-index slice a string');
      const len = item.length;
      const [lo = 0, hi = len] = idx.map((i) => {
        if (typeof i !== 'number' || !Number.isInteger(i)) throw new Error(`cannot index slice/array with type ${goType(i)}`);
        return i;
      });
      if (lo < 0 || hi < lo || hi > len) throw new Error(`index out of range: ${hi > len ? hi : lo}`);
      return item.slice(lo, hi);
    },
  },
  print: { arity: variadic(0), fn: (_c, args) => sprint(args) },
  println: { arity: variadic(0), fn: (_c, args) => sprintln(args) },
  printf: { arity: variadic(1), fn: (_c, [f, ...args]) => sprintf(str(f, 'printf', 'format'), args) },
  eq: {
    arity: variadic(1),
    fn: (_c, [a, ...rest]) => {
      if (rest.length === 0) throw new Error('missing argument for comparison');
      return rest.some((b) => basicEqual(a, b));
    },
  },
  ne: { arity: 2, fn: (_c, [a, b]) => !basicEqual(a, b) },
  lt: { arity: 2, fn: (_c, [a, b]) => lessThan(a, b) },
  le: { arity: 2, fn: (_c, [a, b]) => lessThan(a, b) || basicEqual(a, b) },
  gt: { arity: 2, fn: (_c, [a, b]) => lessThan(b, a) },
  ge: { arity: 2, fn: (_c, [a, b]) => lessThan(b, a) || basicEqual(a, b) },
  html: {
    arity: variadic(0),
    fn: (_c, args) =>
      sprint(args).replace(/[&<>"'\0]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&#34;', "'": '&#39;', '\0': '\uFFFD' })[c]!),
  },
  js: {
    arity: variadic(0),
    fn: (_c, args) =>
      sprint(args).replace(/[\\'"<>&=\n\r\t]/g, (c) =>
        c === '\\' ? '\\\\' : c === "'" ? "\\'" : c === '"' ? '\\"' : `\\u${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`,
      ),
  },
  urlquery: { arity: variadic(0), fn: (_c, args) => encodeURIComponent(sprint(args)).replace(/%20/g, '+').replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`) },

  // consul-template: the environment and files.
  env: { arity: 1, fn: (c, [k]) => c.env[str(k, 'env')] ?? '' },
  // A variable that is set wins, even when empty.
  envOrDefault: { arity: 2, fn: (c, [k, d]) => (Object.hasOwn(c.env, str(k, 'envOrDefault')) ? c.env[k as string] : str(d, 'envOrDefault', 'default')) },
  mustEnv: {
    arity: 1,
    fn: (c, [k]) => {
      const name = str(k, 'mustEnv');
      if (!c.env[name]) throw new Error(`required environment variable ${name} is empty`);
      return c.env[name];
    },
  },
  file: { arity: 1, fn: (c, [p]) => c.readFile(str(p, 'file')) },
  secret: {
    arity: [1, Infinity],
    fn: (c, [p, ...params]) => {
      const dep = parseSecretArgs(str(p, 'secret'), params.map((x) => str(x, 'secret', 'parameter')));
      if (!c.secret) throw new Error('secret: secrets cannot be read here');
      return c.secret(dep);
    },
  },
  // consul-template's: an empty path lists nothing, without a request.
  secrets: {
    arity: 1,
    fn: (c, [p]) => {
      const path = str(p, 'secrets');
      if (path === '') return [];
      const dep = parseListPath(path);
      if (!c.secret) throw new Error('secrets: secrets cannot be listed here');
      return c.secret(dep) ?? [];
    },
  },

  // Strings.
  toLower: { arity: 1, fn: (_c, [s]) => str(s, 'toLower').toLowerCase() },
  toUpper: { arity: 1, fn: (_c, [s]) => str(s, 'toUpper').toUpperCase() },
  toTitle: { arity: 1, fn: (_c, [s]) => toTitle(str(s, 'toTitle')) },
  trimSpace: { arity: 1, fn: (_c, [s]) => str(s, 'trimSpace').replace(/^[\s\u0085]+|[\s\u0085]+$/g, '') },
  trim: {
    arity: 2,
    fn: (_c, [cut, s]) => {
      const set = new Set(str(cut, 'trim', 'cutset'));
      const chars = [...str(s, 'trim')];
      let a = 0;
      let b = chars.length;
      while (a < b && set.has(chars[a])) a++;
      while (b > a && set.has(chars[b - 1])) b--;
      return chars.slice(a, b).join('');
    },
  },
  trimPrefix: { arity: 2, fn: (_c, [p, s]) => (str(s, 'trimPrefix').startsWith(str(p, 'trimPrefix')) ? (s as string).slice((p as string).length) : s) },
  trimSuffix: {
    arity: 2,
    fn: (_c, [p, s]) => {
      const suffix = str(p, 'trimSuffix');
      const text = str(s, 'trimSuffix');
      return suffix !== '' && text.endsWith(suffix) ? text.slice(0, -suffix.length) : text;
    },
  },
  replaceAll: { arity: 3, fn: (_c, [from, to, s]) => str(s, 'replaceAll').split(str(from, 'replaceAll')).join(str(to, 'replaceAll')) },
  split: {
    arity: 2,
    fn: (_c, [sep, s]) => {
      const text = str(s, 'split').trim();
      return text === '' ? [] : text.split(str(sep, 'split', 'separator'));
    },
  },
  join: { arity: 2, fn: (_c, [sep, l]) => list(l, 'join').map((x) => (typeof x === 'string' ? x : formatValue(x, false))).join(str(sep, 'join', 'separator')) },
  contains: { arity: 2, fn: (_c, [needle, haystack]) => contains(haystack, needle) },
  in: { arity: 2, fn: (_c, [haystack, needle]) => contains(haystack, needle) },
  containsAll: { arity: 2, fn: (_c, [want, l]) => list(want, 'containsAll').every((x) => contains(l, x)) },
  containsAny: { arity: 2, fn: (_c, [want, l]) => list(want, 'containsAny').some((x) => contains(l, x)) },
  containsNone: { arity: 2, fn: (_c, [want, l]) => !list(want, 'containsNone').some((x) => contains(l, x)) },
  containsNotAll: { arity: 2, fn: (_c, [want, l]) => !list(want, 'containsNotAll').every((x) => contains(l, x)) },
  regexMatch: { arity: 2, fn: (_c, [re, s]) => compileRe2(str(re, 'regexMatch', 'expression')).test(str(s, 'regexMatch')) },
  regexReplaceAll: {
    arity: 3,
    fn: (_c, [re, repl, s]) => compileRe2(str(re, 'regexReplaceAll', 'expression')).replaceAll(str(s, 'regexReplaceAll'), str(repl, 'regexReplaceAll')),
  },
  indent: {
    arity: 2,
    fn: (_c, [n, s]) => {
      const spaces = num(n, 'indent');
      if (spaces < 0) throw new Error('indent value must be a positive integer');
      const pad = ' '.repeat(spaces);
      // Empty lines stay empty.
      return str(s, 'indent')
        .split('\n')
        .map((l) => (l === '' ? l : pad + l))
        .join('\n');
    },
  },
  loop: {
    arity: [1, 2],
    fn: (_c, args) => {
      const [from, to] = args.length === 1 ? [0, num(args[0], 'loop')] : [num(args[0], 'loop'), num(args[1], 'loop')];
      const out: number[] = [];
      for (let i = from; i < to; i++) out.push(i);
      return out;
    },
  },

  // Encodings.
  toJSON: { arity: 1, fn: (_c, [v]) => goJSON(v) },
  toJSONPretty: { arity: 1, fn: (_c, [v]) => goJSON(v, { indent: '  ' }) },
  toUnescapedJSON: { arity: 1, fn: (_c, [v]) => goJSON(v, { escapeHTML: false }) },
  toUnescapedJSONPretty: { arity: 1, fn: (_c, [v]) => goJSON(v, { escapeHTML: false, indent: '  ' }) },
  parseJSON: {
    arity: 1,
    fn: (_c, [s]) => {
      const text = str(s, 'parseJSON');
      if (text.trim() === '') return {};
      try {
        return JSON.parse(text) as Value;
      } catch (err) {
        throw new Error(`parseJSON: ${(err as Error).message}`);
      }
    },
  },
  toYAML: { arity: 1, fn: (_c, [v]) => stringifyYaml(v, { sortMapEntries: true }).trim() },
  parseYAML: {
    arity: 1,
    fn: (_c, [s]) => {
      try {
        return (parseYaml(str(s, 'parseYAML')) as Value) ?? {};
      } catch (err) {
        throw new Error(`parseYAML: ${(err as Error).message}`);
      }
    },
  },
  base64Encode: { arity: 1, fn: (_c, [s]) => Buffer.from(str(s, 'base64Encode'), 'utf8').toString('base64') },
  base64Decode: { arity: 1, fn: (_c, [s]) => base64Decode(str(s, 'base64Decode'), false, 'base64Decode') },
  base64URLEncode: { arity: 1, fn: (_c, [s]) => Buffer.from(str(s, 'base64URLEncode'), 'utf8').toString('base64url').padEnd(Math.ceil(Buffer.byteLength(s as string) / 3) * 4, '=') },
  base64URLDecode: { arity: 1, fn: (_c, [s]) => base64Decode(str(s, 'base64URLDecode'), true, 'base64URLDecode') },
  sha256Hex: { arity: 1, fn: (_c, [s]) => createHash('sha256').update(str(s, 'sha256Hex')).digest('hex') },
  md5sum: { arity: 1, fn: (_c, [s]) => createHash('md5').update(str(s, 'md5sum')).digest('hex') },

  // Conversions and numbers.
  parseBool: {
    arity: 1,
    fn: (_c, [s]) => {
      const t = str(s, 'parseBool');
      if (t === '') return false;
      const b = parseGoBool(t);
      if (b !== undefined) return b;
      throw new Error(`parseBool: strconv.ParseBool: parsing ${JSON.stringify(t)}: invalid syntax`);
    },
  },
  parseFloat: {
    arity: 1,
    fn: (_c, [s]) => {
      const t = str(s, 'parseFloat');
      if (t === '') return 0;
      const n = Number(t);
      if (t.trim() !== t || Number.isNaN(n)) throw new Error(`parseFloat: strconv.ParseFloat: parsing ${JSON.stringify(t)}: invalid syntax`);
      return n;
    },
  },
  parseInt: { arity: 1, fn: (_c, [s]) => (str(s, 'parseInt') === '' ? 0 : parseGoInt(s as string, 'parseInt')) },
  parseUint: { arity: 1, fn: (_c, [s]) => (str(s, 'parseUint') === '' ? 0 : parseGoInt(s as string, 'parseUint', true)) },
  add: arith('add', (a, b) => a + b),
  subtract: arith('subtract', (a, b) => a - b),
  multiply: arith('multiply', (a, b) => a * b),
  divide: arith('divide', (a, b) => {
    if (b === 0) throw new Error('divide: division by zero');
    return Number.isInteger(a) && Number.isInteger(b) ? Math.trunc(a / b) : a / b;
  }),
  modulo: arith('modulo', (a, b) => {
    if (b === 0) throw new Error('modulo: division by zero');
    return a % b;
  }),
  minimum: arith('minimum', (a, b) => Math.min(a, b)),
  maximum: arith('maximum', (a, b) => Math.max(a, b)),
  timestamp: {
    arity: [0, 1],
    fn: (c, args) => {
      const now = c.now();
      if (args.length === 0) return goTimeFormat(now, '2006-01-02T15:04:05Z07:00');
      const layout = str(args[0], 'timestamp', 'format');
      if (layout === 'unix') return String(Math.floor(now.getTime() / 1000));
      return goTimeFormat(now, layout);
    },
  },
};

/** What the functions that svc knows but does not provide would need. */
const NEEDS: Record<string, string> = {
  nomadVar: 'Nomad variables',
  nomadVarList: 'Nomad variables',
  nomadVarListSafe: 'Nomad variables',
  nomadVarExists: 'Nomad variables',
  nomadService: "Nomad's service discovery",
  nomadServices: "Nomad's service discovery",
  key: "Consul's KV store",
  keyExists: "Consul's KV store",
  keyOrDefault: "Consul's KV store",
  ls: "Consul's KV store",
  safeLs: "Consul's KV store",
  tree: "Consul's KV store",
  safeTree: "Consul's KV store",
  service: "Consul's catalog",
  services: "Consul's catalog",
  connect: "Consul's catalog",
  caRoots: "Consul's catalog",
  caLeaf: "Consul's catalog",
  node: "Consul's catalog",
  nodes: "Consul's catalog",
  datacenters: "Consul's catalog",
  partitions: "Consul's catalog",
  peerings: "Consul's catalog",
  exportedServices: "Consul's catalog",
  pkiCert: 'Vault',
  sockaddr: "go-sockaddr's view of the host's interfaces",
  executeTemplate: 'named templates (define/template)',
  call: 'function values',
};

/** Disabled in Nomad's default client configuration (function_denylist), and so here. */
const DENIED = new Set(['plugin', 'writeToFile']);

export const FUNC_LOOKUP: FuncLookup = {
  has: (name) => Object.hasOwn(FUNCS, name),
  refusal: (name) => {
    if (Object.hasOwn(NEEDS, name)) return `function "${name}" is not supported by svc (it needs ${NEEDS[name]}, which svc's client does not provide)`;
    if (name.startsWith('sprig_')) return `function "${name}" is not supported by svc (sprig functions are not provided)`;
    if (DENIED.has(name)) return `function "${name}" is disabled`;
    return undefined;
  },
};
