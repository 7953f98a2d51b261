/**
 * Regular expressions in RE2 syntax, the dialect of Nomad and Vault (Go's regexp), for every pattern a user
 * supplies: `regexp` constraints and affinities, `matches` in filter expressions, and the regex functions
 * of job files and templates. A pattern is parsed by RE2's rules, translated to JavaScript with the same
 * meaning, and run on V8's linear-time engine, so that, as with RE2, matching takes time linear in the
 * input whatever the pattern: `(a+)+$` against a long line of `a`s cannot hold the server.
 *
 * The engine tries every range of a character class in turn, so a pattern with large Unicode classes
 * (`\pL` has hundreds of ranges) is slow per character even though linear: `\pL{16}` over 50,000
 * characters is seconds of work. A match whose estimated work is above a bound therefore runs under a time
 * limit and fails with Re2TimeLimitError (a UserError) past it; everyday patterns and inputs never reach it.
 *
 * Differences left: under (?m), `^` and `$` also see `\r`, U+2028 and U+2029 as line ends; (?m) line
 * anchors cannot be mixed with `\A`, `\z` or single-line `^`/`$` in one pattern (refused); inside a
 * repetition counted above 16 (`(x){20}`) a group captures its first iteration rather than its last; a
 * repetition whose body can match the empty string (`(a|)*`) may pick another of the possible matches than
 * RE2 does, which changes what is replaced but never whether a text matches; and Unicode classes follow the
 * runtime's Unicode version.
 */
import { setFlagsFromString } from 'node:v8';
import { Script, createContext } from 'node:vm';
import { InternalError, UserError } from '../errors.js';
import { emitJs } from './emit.js';
import { expand } from './expand.js';
import { parseRe2 } from './parse.js';

export { Re2SyntaxError } from './parse.js';

export interface Re2 {
  /** The pattern as written. */
  readonly pattern: string;
  /** Whether the pattern matches somewhere in `s` (Go's MatchString). */
  test(s: string): boolean;
  /** `s` with every match replaced by `template` expanded (Go's ReplaceAllString). */
  replaceAll(s: string, template: string): string;
}

export class Re2TimeLimitError extends UserError {
  constructor(pattern: string) {
    super(
      `the regular expression \`${pattern}\` took more than ${MATCH_TIME_LIMIT_MS} ms to match; ` +
        'large Unicode classes such as \\pL under counted repetition are the usual cause',
    );
  }
}

/** Compiles an RE2 pattern; throws Re2SyntaxError (a UserError) with Go's message when it is not valid. */
export function compileRe2(pattern: string): Re2 {
  const { tree, names } = parseRe2(pattern);
  const { source, multiline, cost } = emitJs(tree, pattern);
  enableLinearEngine();
  // `g` only so that a search can start at lastIndex; each use sets lastIndex first.
  return new LinearRegexp(pattern, new RegExp(source, multiline ? 'gml' : 'gl'), names, cost);
}

/** Work (cost per character times characters) up to which a match runs without a time limit: ~50 ms. */
const UNTIMED_WORK = 2_000_000;
const MATCH_TIME_LIMIT_MS = 100;

/** A script that calls `run`, and the context it runs in; made on first use. */
let limiter: { script: Script; context: Record<string, unknown> } | undefined;

/** `run()` under the time limit: vm's timeout interrupts the RegExp engine too. */
function timeLimited<T>(pattern: string, run: () => T): T {
  limiter ??= { script: new Script('run()'), context: createContext({}) };
  limiter.context.run = run;
  try {
    return limiter.script.runInContext(limiter.context, { timeout: MATCH_TIME_LIMIT_MS }) as T;
  } catch (err) {
    if ((err as { code?: unknown }).code === 'ERR_SCRIPT_EXECUTION_TIMEOUT') throw new Re2TimeLimitError(pattern);
    throw err;
  } finally {
    limiter.context.run = undefined;
  }
}

let linearEngine = false;

function enableLinearEngine(): void {
  if (linearEngine) return;
  setFlagsFromString('--enable-experimental-regexp-engine');
  try {
    new RegExp('', 'l');
  } catch {
    // Matching without it would let one pattern stall the server, so nothing is matched at all.
    throw new InternalError('this Node.js has no linear-time RegExp engine (V8 --enable-experimental-regexp-engine), which regular expressions need');
  }
  linearEngine = true;
}

// ES2024, present in Node 20 but not in the ES2023 library this project compiles against.
const toWellFormed = (String.prototype as unknown as { toWellFormed(this: string): string }).toWellFormed;

const isHigh = (u: number) => u >= 0xd800 && u <= 0xdbff;
const isLow = (u: number) => u >= 0xdc00 && u <= 0xdfff;

class LinearRegexp implements Re2 {
  constructor(
    readonly pattern: string,
    private readonly re: RegExp,
    private readonly names: readonly string[],
    private readonly cost: number,
  ) {}

  test(s: string): boolean {
    return this.bounded(s, () => this.find(toWellFormed.call(s), 0) !== null);
  }

  replaceAll(s: string, template: string): string {
    return this.bounded(s, () => this.replace(toWellFormed.call(s), template));
  }

  private bounded<T>(s: string, run: () => T): T {
    return this.cost * s.length <= UNTIMED_WORK ? run() : timeLimited(this.pattern, run);
  }

  private replace(s: string, template: string): string {
    let out = '';
    let lastMatchEnd = 0;
    let searchPos = 0;
    // Go's replaceAll loop: an empty match right after the previous match is not replaced, and the search
    // always moves on by at least one code point.
    while (searchPos <= s.length) {
      const m = this.find(s, searchPos);
      if (!m) break;
      const end = m.index + m[0].length;
      out += s.slice(lastMatchEnd, m.index);
      if (end > lastMatchEnd || m.index === 0) out += expand(template, m, this.names);
      lastMatchEnd = end;
      const width = searchPos >= s.length ? 0 : isHigh(s.charCodeAt(searchPos)) ? 2 : 1;
      if (searchPos + width > end) searchPos += width;
      else if (searchPos + 1 > end) searchPos++;
      else searchPos = end;
    }
    return out + s.slice(lastMatchEnd);
  }

  /**
   * The leftmost match at or after `from` in well-formed text. The source works on UTF-16 units, so an
   * empty match could land between the two halves of a surrogate pair, where RE2, which works on code
   * points, has no position; such a match is skipped.
   */
  private find(s: string, from: number): RegExpExecArray | null {
    this.re.lastIndex = from;
    for (;;) {
      const m = this.re.exec(s);
      if (!m || !(m.index > 0 && isHigh(s.charCodeAt(m.index - 1)) && isLow(s.charCodeAt(m.index)))) return m;
      this.re.lastIndex = m.index + 1;
    }
  }
}
