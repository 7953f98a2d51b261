/**
 * Version constraints as Nomad's `version` and `semver` operands check them: `version` follows
 * hashicorp/go-version (any number of segments, `~>`, a pre-release only satisfies a constraint that names
 * one), `semver` follows Semantic Versioning 2.0 ordering with the plain comparison operators.
 */

interface Version {
  /** numeric segments, padded with zeros to at least three */
  segments: number[];
  /** how many segments the text gave: `~> 1.2` bounds the second one */
  given: number;
  prerelease: string;
}

const LOOSE =
  /^v?([0-9]+(?:\.[0-9]+)*?)(?:-([0-9]+[0-9A-Za-z\-~]*(?:\.[0-9A-Za-z\-~]+)*)|(?:-?([A-Za-z\-~]+[0-9A-Za-z\-~]*(?:\.[0-9A-Za-z\-~]+)*)))?(?:\+[0-9A-Za-z\-~]+(?:\.[0-9A-Za-z\-~]+)*)?$/;
const STRICT = /^v?([0-9]+(?:\.[0-9]+){0,2})(?:-([0-9A-Za-z\-~]+(?:\.[0-9A-Za-z\-~]+)*))?(?:\+[0-9A-Za-z\-~]+(?:\.[0-9A-Za-z\-~]+)*)?$/;
const CONSTRAINT = /^\s*(>=|<=|~>|!=|>|<|=)?\s*(\S+)\s*$/;

function parse(text: string, strict: boolean): Version | undefined {
  const m = (strict ? STRICT : LOOSE).exec(text.trim());
  if (!m) return undefined;
  const given = m[1].split('.').map(Number);
  const segments = given.concat(Array(Math.max(0, 3 - given.length)).fill(0));
  return { segments, given: given.length, prerelease: m[2] ?? m[3] ?? '' };
}

function comparePrerelease(a: string, b: string): number {
  if (a === b) return 0;
  if (!a) return 1;
  if (!b) return -1;
  const pa = a.split('.');
  const pb = b.split('.');
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    if (i >= pa.length) return -1;
    if (i >= pb.length) return 1;
    const c = compareIdentifier(pa[i], pb[i]);
    if (c !== 0) return c;
  }
  return 0;
}

function compareIdentifier(a: string, b: string): number {
  const na = /^\d+$/.test(a);
  const nb = /^\d+$/.test(b);
  if (na && nb) return Math.sign(Number(a) - Number(b));
  // numeric identifiers sort before alphanumeric ones
  if (na !== nb) return na ? -1 : 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

function compare(a: Version, b: Version): number {
  const n = Math.max(a.segments.length, b.segments.length);
  for (let i = 0; i < n; i++) {
    const d = (a.segments[i] ?? 0) - (b.segments[i] ?? 0);
    if (d !== 0) return Math.sign(d);
  }
  return comparePrerelease(a.prerelease, b.prerelease);
}

/** go-version: a pre-release matches only a constraint on a pre-release of the same release. */
function prereleaseAllowed(v: Version, c: Version): boolean {
  if (!v.prerelease) return true;
  if (!c.prerelease) return false;
  return compare({ ...v, prerelease: '' }, { ...c, prerelease: '' }) === 0;
}

function pessimistic(v: Version, c: Version): boolean {
  if (!prereleaseAllowed(v, c) || (c.prerelease && !v.prerelease)) return false;
  if (compare(v, c) < 0) return false;
  for (let i = 0; i < c.given - 1; i++) if (v.segments[i] !== c.segments[i]) return false;
  return v.segments[c.given - 1] >= c.segments[c.given - 1];
}

type Check = (v: Version) => boolean;

function term(op: string, c: Version, strict: boolean): Check {
  const guard = strict ? () => true : (v: Version) => prereleaseAllowed(v, c);
  switch (op) {
    case '':
    case '=':
      return (v) => compare(v, c) === 0;
    case '!=':
      return (v) => compare(v, c) !== 0;
    case '>':
      return (v) => guard(v) && compare(v, c) > 0;
    case '<':
      return (v) => guard(v) && compare(v, c) < 0;
    case '>=':
      return (v) => guard(v) && compare(v, c) >= 0;
    case '<=':
      return (v) => guard(v) && compare(v, c) <= 0;
    default:
      return (v) => pessimistic(v, c);
  }
}

function parseConstraint(text: string, strict: boolean): Check[] | undefined {
  const checks: Check[] = [];
  for (const part of text.split(',')) {
    const m = CONSTRAINT.exec(part);
    if (!m) return undefined;
    const op = m[1] ?? '';
    if (strict && op === '~>') return undefined;
    const c = parse(m[2], strict);
    if (!c) return undefined;
    checks.push(term(op, c, strict));
  }
  return checks;
}

// Constraints repeat across every node of an evaluation; parse each text once per process.
const cache = new Map<string, Check[] | null>();

/** Whether `version` satisfies `constraint` (`>= 1.2, < 2.0`); unparsable input never matches. */
export function versionMatches(version: string, constraint: string, strict: boolean): boolean {
  const key = `${strict ? 's' : 'v'}${constraint}`;
  let checks = cache.get(key);
  if (checks === undefined) {
    checks = parseConstraint(constraint, strict) ?? null;
    if (cache.size > 10_000) cache.clear();
    cache.set(key, checks);
  }
  if (!checks) return false;
  const v = parse(version, strict);
  return v !== undefined && checks.every((check) => check(v));
}
