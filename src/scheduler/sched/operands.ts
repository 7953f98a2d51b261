/**
 * One constraint operand applied to the two resolved targets, as Nomad's checkConstraint does. A target is
 * undefined when the node lacks it; only `!=`/`not` and `is_not_set` can then pass, as in Nomad.
 */
import { type Re2, Re2SyntaxError, Re2TimeLimitError, compileRe2 } from '../../shared/re2/index.js';
import { versionMatches } from './version.js';

const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

export function checkOperand(operand: string, l: string | undefined, r: string | undefined): boolean {
  const found = l !== undefined && r !== undefined;
  switch (operand) {
    case '=':
    case '==':
    case 'is':
      return found && l === r;
    case '!=':
    case 'not':
      return l !== r;
    case '<':
    case '<=':
    case '>':
    case '>=':
      return found && checkOrder(operand, l, r);
    case 'is_set':
      return l !== undefined;
    case 'is_not_set':
      return l === undefined;
    case 'regexp':
      return found && regexpMatches(l, r);
    case 'version':
      return found && versionMatches(l, r, false);
    case 'semver':
      return found && versionMatches(l, r, true);
    case 'set_contains':
    case 'set_contains_all': {
      if (!found) return false;
      const have = new Set(splitSet(l));
      return splitSet(r).every((v) => have.has(v));
    }
    case 'set_contains_any': {
      if (!found) return false;
      const have = new Set(splitSet(l));
      return splitSet(r).some((v) => have.has(v));
    }
    default:
      return false;
  }
}

/** Numeric when both sides are numbers, lexical otherwise. */
function checkOrder(op: string, l: string, r: string): boolean {
  let c: number;
  if (NUMBER.test(l.trim()) && NUMBER.test(r.trim())) c = Math.sign(Number(l) - Number(r));
  else c = l < r ? -1 : l > r ? 1 : 0;
  switch (op) {
    case '<':
      return c < 0;
    case '<=':
      return c <= 0;
    case '>':
      return c > 0;
    default:
      return c >= 0;
  }
}

function splitSet(s: string): string[] {
  return s.split(',').map((v) => v.trim());
}

/** Compiled patterns, shared by every node a constraint is checked against; null for one that is not valid. */
const regexps = new Map<string, Re2 | null>();

/**
 * Nomad's checkRegexpMatch: RE2 syntax, unanchored; a pattern that does not compile matches nothing, and
 * neither does one too slow for the value, so that one node's attribute cannot fail a whole evaluation.
 */
function regexpMatches(value: string, pattern: string): boolean {
  let re = regexps.get(pattern);
  if (re === undefined) {
    try {
      re = compileRe2(pattern);
    } catch (err) {
      if (!(err instanceof Re2SyntaxError)) throw err;
      re = null;
    }
    if (regexps.size > 10_000) regexps.clear();
    regexps.set(pattern, re);
  }
  if (re === null) return false;
  try {
    return re.test(value);
  } catch (err) {
    if (err instanceof Re2TimeLimitError) return false;
    throw err;
  }
}
