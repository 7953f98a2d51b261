/**
 * The evaluator for a token's policies. Built once per token (or per policy-set change) and then queried
 * per request, so construction does the merging and compiling and queries stay cheap.
 *
 * Secrets paths follow Vault: identical patterns merge across policies, then the single most specific
 * matching pattern decides — capabilities never combine across different patterns. Namespaces follow
 * Nomad: an exact name wins, otherwise the glob that needs the fewest wildcard characters to match.
 * In both, a `deny` in the deciding rule denies everything. The node and agent rules follow Nomad too: across
 * policies a `deny` wins, otherwise the most permissive (`write` implies `read`).
 */
import {
  ALL_NAMESPACE_GRANTS,
  ALL_PATH_GRANTS,
  NsCap,
  PathCap,
  type NodeCapability,
  type NodePolicy,
  type PathCapability,
} from './capabilities.js';
import { ROOT_POLICY_NAME } from './builtin.js';
import type { Policy } from './policy.js';

/** Nomad's "all namespaces" request value: an operation is allowed if any namespace allows it. */
const ALL_NAMESPACES = '*';

interface WildcardPathRule {
  caps: ReadonlySet<string>;
  /** Pattern without the trailing `*`. */
  stem: string;
  isPrefix: boolean;
  /** `stem` split on `/`; only used when `wildcards > 0`. */
  segments: string[];
  /** Number of `+` segments. */
  wildcards: number;
  /** Offset of the first `+` segment or of the trailing `*`, Vault's first priority key. */
  firstWildcard: number;
}

interface NamespaceGlob {
  pattern: string;
  caps: ReadonlySet<string>;
  regex: RegExp;
  /** Characters of the pattern that are not `*`: a longer literal part is a closer match. */
  literalLength: number;
}

export class Acl {
  readonly root: boolean;
  readonly policyNames: string[];
  private readonly exactPaths = new Map<string, ReadonlySet<string>>();
  private readonly wildcardPaths: WildcardPathRule[] = [];
  private readonly exactNamespaces = new Map<string, ReadonlySet<string>>();
  private readonly namespaceGlobs: NamespaceGlob[] = [];
  /** The merged node rule; undefined when no policy has one. */
  private readonly nodePolicy: NodePolicy | undefined;
  /** The merged agent rule, merged as the node rule is. */
  private readonly agentPolicy: NodePolicy | undefined;

  private constructor(policies: Policy[]) {
    this.policyNames = [...new Set(policies.map((p) => p.name))];
    this.root = this.policyNames.includes(ROOT_POLICY_NAME);

    for (const [pattern, caps] of mergeRules(policies.flatMap((p) => p.paths))) {
      const isPrefix = pattern.endsWith('*');
      const stem = isPrefix ? pattern.slice(0, -1) : pattern;
      const segments = stem.split('/');
      const wildcards = segments.filter((s) => s === '+').length;
      if (!isPrefix && wildcards === 0) {
        this.exactPaths.set(pattern, caps);
        continue;
      }
      const firstPlus = segments.indexOf('+');
      const firstWildcard = firstPlus === -1 ? stem.length : segments.slice(0, firstPlus).join('/').length + (firstPlus > 0 ? 1 : 0);
      this.wildcardPaths.push({ caps, stem, isPrefix, segments, wildcards, firstWildcard });
    }

    for (const [pattern, caps] of mergeRules(policies.flatMap((p) => p.namespaces))) {
      if (!pattern.includes('*')) {
        this.exactNamespaces.set(pattern, caps);
        continue;
      }
      const regex = new RegExp(`^${pattern.split('*').map(escapeRegExp).join('.*')}$`, 's');
      this.namespaceGlobs.push({ pattern, caps, regex, literalLength: pattern.replaceAll('*', '').length });
    }
    // Sorted so equally close globs resolve to the lexicographically smallest pattern, deterministically.
    this.namespaceGlobs.sort((a, b) => compareStrings(a.pattern, b.pattern));

    this.nodePolicy = policies.reduce<NodePolicy | undefined>((merged, p) => maxNodePolicy(merged, p.node), undefined);
    this.agentPolicy = policies.reduce<NodePolicy | undefined>((merged, p) => maxNodePolicy(merged, p.agent), undefined);
  }

  static fromPolicies(policies: Policy[]): Acl {
    return new Acl(policies);
  }

  /**
   * Capabilities granted on a secrets path (request path without /v1/, e.g. 'auth/token/create'). For list
   * requests callers pass the path with a trailing '/'. Like Vault's sys/capabilities this applies the list
   * fallback (a trailing-slash path also consults rules written without the slash). Returns {'deny'} when the
   * deciding rule denies, and an empty set when no rule matches.
   */
  capabilities(path: string): Set<string> {
    if (this.root) return new Set(ALL_PATH_GRANTS);
    const caps = this.lookupPath(path, true);
    if (caps === undefined) return new Set();
    if (caps.has(PathCap.Deny)) return new Set([PathCap.Deny]);
    return new Set(caps);
  }

  allows(path: string, capability: Exclude<PathCapability, 'deny'>): boolean {
    if (this.root) return true;
    const caps = this.lookupPath(path, capability === PathCap.List);
    return caps !== undefined && !caps.has(PathCap.Deny) && caps.has(capability);
  }

  /**
   * Vault's hasMountAccess: whether the token may learn of the mount at `mountPath` (with its trailing
   * slash), as sys/internal/ui/mounts decides it. A capability on the mount path itself is enough;
   * otherwise any rule for a path under the mount that grants something other than deny (a token with
   * only `secret/data/app/*` reaches secret/). A `+` segment counts as matching the mount's segment.
   */
  reachesMount(mountPath: string): boolean {
    if (this.root) return true;
    const own = this.capabilities(mountPath);
    if (own.size > 0 && !own.has(PathCap.Deny)) return true;
    const grants = (caps: ReadonlySet<string>) => caps.size > 0 && !caps.has(PathCap.Deny);
    for (const [pattern, caps] of this.exactPaths) if (pattern.startsWith(mountPath) && grants(caps)) return true;
    const mountParts = mountPath.replace(/\/$/, '').split('/');
    return this.wildcardPaths.some((rule) => {
      if (!grants(rule.caps)) return false;
      if (rule.wildcards === 0) return rule.stem.startsWith(mountPath);
      // The rule's first segments must name the mount (a `+` names any), and it must reach below it.
      return rule.segments.length > mountParts.length && mountParts.every((part, i) => rule.segments[i] === '+' || rule.segments[i] === part);
    });
  }

  /** Capabilities in a namespace: all of them for root, {'deny'} when denied, empty when no rule matches. */
  namespaceCapabilities(namespace: string): Set<string> {
    if (this.root) return new Set(ALL_NAMESPACE_GRANTS);
    const caps = this.lookupNamespace(namespace);
    if (caps === undefined) return new Set();
    if (caps.has(NsCap.Deny)) return new Set([NsCap.Deny]);
    return new Set(caps);
  }

  /** Nomad's AllowNamespaceOperation; for namespace `*` it is enough that any namespace rule allows it. */
  allowsNamespace(namespace: string, capability: string): boolean {
    if (this.root) return true;
    if (capability === NsCap.Deny) return false;
    const grants = (caps: ReadonlySet<string>): boolean => !caps.has(NsCap.Deny) && caps.has(capability);
    if (namespace === ALL_NAMESPACES && this.anyNamespaceRule(grants)) return true;
    const caps = this.lookupNamespace(namespace);
    return caps !== undefined && grants(caps);
  }

  /** True when the token has any non-deny capability on the namespace (for filtering `*` listings). */
  canAccessNamespace(namespace: string): boolean {
    if (this.root) return true;
    const grantsAny = (caps: ReadonlySet<string>): boolean => caps.size > 0 && !caps.has(NsCap.Deny);
    if (namespace === ALL_NAMESPACES && this.anyNamespaceRule(grantsAny)) return true;
    const caps = this.lookupNamespace(namespace);
    return caps !== undefined && grantsAny(caps);
  }

  /** Nomad's AllowNodeRead / AllowNodeWrite: `write` also grants `read`; `deny` or no node rule grants nothing. */
  allowsNode(capability: NodeCapability): boolean {
    if (this.root) return true;
    if (capability === 'read') return this.nodePolicy === 'read' || this.nodePolicy === 'write';
    return this.nodePolicy === 'write';
  }

  /** Nomad's AllowAgentRead / AllowAgentWrite, on the `agent` rule as allowsNode on the node rule. */
  allowsAgent(capability: NodeCapability): boolean {
    if (this.root) return true;
    if (capability === 'read') return this.agentPolicy === 'read' || this.agentPolicy === 'write';
    return this.agentPolicy === 'write';
  }

  /** Vault's lookup order, including the list fallback to the path without its trailing slash. */
  private lookupPath(rawPath: string, listFallback: boolean): ReadonlySet<string> | undefined {
    const path = rawPath.replace(/^\/+/, '');
    const exact = this.exactPaths.get(path);
    if (exact !== undefined) return exact;
    const trimmed = path.endsWith('/') ? path.slice(0, -1) : undefined;
    if (listFallback && trimmed !== undefined) {
      // As current Vault does: glob rules matching either form of a listing compete, and the most
      // specific wins. Trying the trimmed form first let `sys/*` beat a `sys/policies/acl/*` deny.
      const exactTrimmed = this.exactPaths.get(trimmed);
      if (exactTrimmed !== undefined) return exactTrimmed;
      const a = this.closestWildcardRule(trimmed);
      const b = this.closestWildcardRule(path);
      return (a && b ? (comparePathPriority(a, b) >= 0 ? a : b) : (a ?? b))?.caps;
    }
    return this.closestWildcardPath(path);
  }

  private closestWildcardPath(path: string): ReadonlySet<string> | undefined {
    return this.closestWildcardRule(path)?.caps;
  }

  private closestWildcardRule(path: string): WildcardPathRule | undefined {
    let best: WildcardPathRule | undefined;
    let parts: string[] | undefined;
    for (const rule of this.wildcardPaths) {
      if (rule.wildcards === 0) {
        if (!path.startsWith(rule.stem)) continue;
      } else {
        parts ??= path.split('/');
        if (!matchesSegments(rule, parts)) continue;
      }
      if (best === undefined || comparePathPriority(rule, best) > 0) best = rule;
    }
    return best;
  }

  private lookupNamespace(namespace: string): ReadonlySet<string> | undefined {
    const exact = this.exactNamespaces.get(namespace);
    if (exact !== undefined) return exact;
    let best: NamespaceGlob | undefined;
    for (const glob of this.namespaceGlobs) {
      // Strictly greater only: on a tie the earlier (lexicographically smaller) pattern stays.
      if (glob.regex.test(namespace) && (best === undefined || glob.literalLength > best.literalLength)) best = glob;
    }
    return best?.caps;
  }

  private anyNamespaceRule(test: (caps: ReadonlySet<string>) => boolean): boolean {
    for (const caps of this.exactNamespaces.values()) if (test(caps)) return true;
    return this.namespaceGlobs.some((g) => test(g.caps));
  }
}

/** Unions capabilities of identical patterns; once any of them denies, the merged rule is deny only. */
function mergeRules(rules: { pattern: string; capabilities: string[] }[]): Map<string, ReadonlySet<string>> {
  const merged = new Map<string, Set<string>>();
  for (const rule of rules) {
    const caps = merged.get(rule.pattern) ?? new Set<string>();
    merged.set(rule.pattern, caps);
    if (caps.has('deny')) continue;
    if (rule.capabilities.includes('deny')) {
      caps.clear();
      caps.add('deny');
      continue;
    }
    for (const c of rule.capabilities) caps.add(c);
  }
  return merged;
}

/** Nomad's maxPrivilege for node rules: `deny` beats everything, then `write`, then `read`. */
function maxNodePolicy(a: NodePolicy | undefined, b: NodePolicy | undefined): NodePolicy | undefined {
  for (const level of ['deny', 'write', 'read'] as const) if (a === level || b === level) return level;
  return undefined;
}

/** `+` matches any one segment; with a trailing `*` the last stem segment is a prefix and more may follow. */
function matchesSegments(rule: WildcardPathRule, parts: string[]): boolean {
  const { segments, isPrefix } = rule;
  if (parts.length < segments.length) return false;
  if (!isPrefix && parts.length !== segments.length) return false;
  return segments.every((seg, i) => {
    if (seg === '+' || seg === parts[i]) return true;
    return isPrefix && i === segments.length - 1 && parts[i].startsWith(seg);
  });
}

/**
 * Positive when `a` has the higher priority. Vault's order: a later first wildcard wins; then a pattern
 * without a trailing `*`; then fewer `+` segments; then the longer pattern; then the lexicographically greater.
 */
function comparePathPriority(a: WildcardPathRule, b: WildcardPathRule): number {
  if (a.firstWildcard !== b.firstWildcard) return a.firstWildcard - b.firstWildcard;
  if (a.isPrefix !== b.isPrefix) return a.isPrefix ? -1 : 1;
  if (a.wildcards !== b.wildcards) return b.wildcards - a.wildcards;
  if (a.stem.length !== b.stem.length) return a.stem.length - b.stem.length;
  return compareStrings(a.stem, b.stem);
}

/** Code-unit order, as Go compares strings; localeCompare would vary with the locale. */
function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
