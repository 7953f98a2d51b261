/**
 * A token's Nomad rules decided in the browser, as the server decides them (src/secrets/policy/acl.ts),
 * from the RulesJSON of each policy GET /v1/acl/policy/:name answers. A test runs both on the same
 * policies, so the pages never show an action the server refuses, nor hide one it allows.
 *
 * Namespaces: identical patterns merge across policies (a `deny` among them makes the rule deny only);
 * an exact name wins, otherwise the glob with the most literal characters (a tie goes to the smaller
 * pattern); a `deny` in the deciding rule denies all. Asked about namespace `*`, any rule granting it is
 * enough. Node and agent rules: across policies `deny` wins, then `write`, then `read`; `write` reads too.
 * The `policy = "..."` shortcuts arrive already expanded into Capabilities.
 */

export interface NomadNamespaceRule {
  Name: string;
  Policy?: string;
  Capabilities: string[] | null;
}

/** The part of a policy's RulesJSON these rules read. */
export interface NomadRules {
  Namespaces?: NomadNamespaceRule[] | null;
  Node?: { Policy: string } | null;
  Agent?: { Policy: string } | null;
}

export type Access = 'read' | 'write';

export interface CompiledRules {
  allowsNamespace(namespace: string, capability: string): boolean;
  allowsNode(access: Access): boolean;
  allowsAgent(access: Access): boolean;
}

const DENY = 'deny';

interface Glob {
  pattern: string;
  caps: ReadonlySet<string>;
  regex: RegExp;
  literalLength: number;
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Code-unit order, as the server sorts its globs (localeCompare would vary with the locale). */
const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

function merge(rules: NomadNamespaceRule[]): Map<string, Set<string>> {
  const merged = new Map<string, Set<string>>();
  for (const rule of rules) {
    const caps = merged.get(rule.Name) ?? new Set<string>();
    merged.set(rule.Name, caps);
    if (caps.has(DENY)) continue;
    const given = rule.Capabilities ?? [];
    if (given.includes(DENY)) {
      caps.clear();
      caps.add(DENY);
      continue;
    }
    for (const c of given) caps.add(c);
  }
  return merged;
}

function strongest(levels: Array<string | undefined>): string | undefined {
  for (const level of [DENY, 'write', 'read']) if (levels.includes(level)) return level;
  return undefined;
}

const allowsLevel = (level: string | undefined, access: Access) => (access === 'read' ? level === 'read' || level === 'write' : level === 'write');

export function compileRules(policies: NomadRules[]): CompiledRules {
  const exact = new Map<string, ReadonlySet<string>>();
  const globs: Glob[] = [];
  for (const [pattern, caps] of merge(policies.flatMap((p) => p.Namespaces ?? []))) {
    if (!pattern.includes('*')) exact.set(pattern, caps);
    else globs.push({ pattern, caps, regex: new RegExp(`^${pattern.split('*').map(escapeRegExp).join('.*')}$`, 's'), literalLength: pattern.replaceAll('*', '').length });
  }
  globs.sort((a, b) => compare(a.pattern, b.pattern));

  const lookup = (namespace: string): ReadonlySet<string> | undefined => {
    const hit = exact.get(namespace);
    if (hit) return hit;
    let best: Glob | undefined;
    for (const glob of globs) if (glob.regex.test(namespace) && (!best || glob.literalLength > best.literalLength)) best = glob;
    return best?.caps;
  };
  const grants = (caps: ReadonlySet<string> | undefined, capability: string) => caps !== undefined && !caps.has(DENY) && caps.has(capability);

  const node = strongest(policies.map((p) => p.Node?.Policy));
  const agent = strongest(policies.map((p) => p.Agent?.Policy));
  return {
    allowsNamespace(namespace, capability) {
      if (capability === DENY) return false;
      if (namespace === '*' && ([...exact.values()].some((c) => grants(c, capability)) || globs.some((g) => grants(g.caps, capability)))) return true;
      return grants(lookup(namespace), capability);
    },
    allowsNode: (access) => allowsLevel(node, access),
    allowsAgent: (access) => allowsLevel(agent, access),
  };
}
