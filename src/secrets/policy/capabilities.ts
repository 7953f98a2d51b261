/**
 * Capability names for both rule kinds, and the Nomad `policy = "..."` shortcuts.
 *
 * Path capabilities are Vault's; namespace capabilities are Nomad's, except that Nomad's `sentinel-override`
 * is spelled `policy-override` here because we have no Sentinel. Handlers should use the `PathCap` / `NsCap`
 * constants rather than string literals so a typo is a compile error, not a silent denial.
 */

export const PathCap = {
  Create: 'create',
  Read: 'read',
  Update: 'update',
  Patch: 'patch',
  Delete: 'delete',
  List: 'list',
  Sudo: 'sudo',
  Deny: 'deny',
} as const;

export type PathCapability = (typeof PathCap)[keyof typeof PathCap];

/** Every path capability, `deny` included, in the order error messages list them. */
export const PATH_CAPABILITIES: readonly PathCapability[] = Object.values(PathCap);

/** What a root token holds on every path: everything except `deny`. */
export const ALL_PATH_GRANTS: readonly PathCapability[] = PATH_CAPABILITIES.filter((c) => c !== PathCap.Deny);

export const NsCap = {
  Deny: 'deny',
  ListJobs: 'list-jobs',
  ParseJob: 'parse-job',
  ReadJob: 'read-job',
  SubmitJob: 'submit-job',
  DispatchJob: 'dispatch-job',
  ReadLogs: 'read-logs',
  ReadFS: 'read-fs',
  AllocExec: 'alloc-exec',
  AllocNodeExec: 'alloc-node-exec',
  AllocLifecycle: 'alloc-lifecycle',
  CSIRegisterPlugin: 'csi-register-plugin',
  CSIWriteVolume: 'csi-write-volume',
  CSIReadVolume: 'csi-read-volume',
  CSIListVolume: 'csi-list-volume',
  CSIMountVolume: 'csi-mount-volume',
  ListScalingPolicies: 'list-scaling-policies',
  ReadScalingPolicy: 'read-scaling-policy',
  ReadJobScaling: 'read-job-scaling',
  ScaleJob: 'scale-job',
  PolicyOverride: 'policy-override',
  SubmitRecommendation: 'submit-recommendation',
} as const;

export type NamespaceCapability = (typeof NsCap)[keyof typeof NsCap];

/** Every namespace capability, `deny` included. */
export const NAMESPACE_CAPABILITIES: readonly NamespaceCapability[] = Object.values(NsCap);

/** What a root token holds in every namespace. */
export const ALL_NAMESPACE_GRANTS: readonly NamespaceCapability[] = NAMESPACE_CAPABILITIES.filter((c) => c !== NsCap.Deny);

const READ: readonly NamespaceCapability[] = [
  NsCap.ListJobs,
  NsCap.ParseJob,
  NsCap.ReadJob,
  NsCap.CSIListVolume,
  NsCap.CSIReadVolume,
  NsCap.ListScalingPolicies,
  NsCap.ReadScalingPolicy,
  NsCap.ReadJobScaling,
];

/**
 * The `policy = "..."` shortcuts, expanded exactly as Nomad expands them. `write` deliberately omits
 * alloc-node-exec, csi-register-plugin and policy-override: Nomad only grants those when named explicitly.
 */
export const NAMESPACE_POLICY_SHORTCUTS = {
  deny: [NsCap.Deny],
  read: READ,
  write: [
    ...READ,
    NsCap.ScaleJob,
    NsCap.SubmitJob,
    NsCap.DispatchJob,
    NsCap.ReadLogs,
    NsCap.ReadFS,
    NsCap.AllocExec,
    NsCap.AllocLifecycle,
    NsCap.CSIMountVolume,
    NsCap.CSIWriteVolume,
    NsCap.SubmitRecommendation,
  ],
  scale: [NsCap.ListScalingPolicies, NsCap.ReadScalingPolicy, NsCap.ReadJobScaling, NsCap.ScaleJob],
} as const satisfies Record<string, readonly NamespaceCapability[]>;

export type NamespacePolicyShortcut = keyof typeof NAMESPACE_POLICY_SHORTCUTS;

export function isPathCapability(value: string): value is PathCapability {
  return (PATH_CAPABILITIES as readonly string[]).includes(value);
}

export function isNamespaceCapability(value: string): value is NamespaceCapability {
  return (NAMESPACE_CAPABILITIES as readonly string[]).includes(value);
}

/** The capabilities a shortcut stands for, or undefined when `policy` is not a known shortcut. */
export function expandNamespacePolicy(policy: string): readonly NamespaceCapability[] | undefined {
  return Object.hasOwn(NAMESPACE_POLICY_SHORTCUTS, policy)
    ? NAMESPACE_POLICY_SHORTCUTS[policy as NamespacePolicyShortcut]
    : undefined;
}

/**
 * Nomad's `node { policy = "..." }` values. `write` implies `read`; when several policies of a token have a
 * node rule, `deny` beats everything and otherwise the most permissive wins (see Acl.allowsNode).
 */
export const NODE_POLICIES = ['deny', 'read', 'write'] as const;

export type NodePolicy = (typeof NODE_POLICIES)[number];

/** What a node route asks for: reading nodes, or changing them (eligibility). */
export type NodeCapability = Exclude<NodePolicy, 'deny'>;

export function isNodePolicy(value: unknown): value is NodePolicy {
  return typeof value === 'string' && (NODE_POLICIES as readonly string[]).includes(value);
}
