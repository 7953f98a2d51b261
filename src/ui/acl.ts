/**
 * What the signed-in token may do, so the pages hide or disable what the server would refuse. Nomad's
 * side as Nomad's UI learns it: the token (GET /v1/acl/token/self), then the rules of each policy its
 * ACL is made of (GET /v1/acl/policies lists them, its entity's included; /v1/acl/policy/:name reads
 * one), decided here as the server decides them (acl-rules.ts). The secrets side as Vault's UI learns
 * it: the server answers for the paths asked (POST /v1/sys/capabilities-self).
 *
 * Answers are kept per token and per set of paths, read again when the token changes or a page that
 * changed policies calls forgetPermissions(). The server still checks every request: hiding is a
 * courtesy, not the guard.
 */
import { useEffect, useState } from 'preact/hooks';
import { call } from './api.js';
import { compileRules, type Access, type NomadRules } from './acl-rules.js';
import { currentToken, onTokenChange } from './token.js';
import type { AclToken } from './types.js';

export interface Can {
  /** a Nomad namespace capability ('list-jobs', 'submit-job', 'alloc-exec', ...) in a namespace, or `*` for any */
  job(capability: string, namespace: string): boolean;
  node(access: Access): boolean;
  agent(access: Access): boolean;
  /** svc's policies have no operator rule: only a management token operates the cluster */
  operator(access: Access): boolean;
  management: boolean;
}

const NOTHING: Can = { job: () => false, node: () => false, agent: () => false, operator: () => false, management: false };
const EVERYTHING: Can = { job: () => true, node: () => true, agent: () => true, operator: () => true, management: true };

let cans = new Map<string, Promise<Can>>();
let capabilities = new Map<string, Promise<Record<string, string[]>>>();
const listeners = new Set<() => void>();

/** Drops every answer kept: the next render asks again (after a policy or a token's policies changed). */
export function forgetPermissions(): void {
  cans = new Map();
  capabilities = new Map();
  for (const listener of listeners) listener();
}

async function readCan(token: string): Promise<Can> {
  const self = (await call<AclToken>('/v1/acl/token/self', { token })).data;
  if (self.Type === 'management') return EVERYTHING;
  const stubs = (await call<Array<{ Name: string }>>('/v1/acl/policies', { token })).data ?? [];
  const policies = await Promise.all(stubs.map(async (s) => (await call<{ RulesJSON: NomadRules }>(`/v1/acl/policy/${encodeURIComponent(s.Name)}`, { token })).data.RulesJSON));
  const rules = compileRules(policies);
  return {
    job: (capability, namespace) => rules.allowsNamespace(namespace, capability),
    node: rules.allowsNode,
    agent: rules.allowsAgent,
    operator: () => false,
    management: false,
  };
}

function canFor(token: string | undefined): Promise<Can> {
  if (!token) return Promise.resolve(NOTHING);
  let can = cans.get(token);
  if (!can) {
    // A token the server refuses may do nothing; the page's own request says why. The refusal is not
    // kept: the next view to ask asks the server again (it may have been away, not the token).
    const reading: Promise<Can> = readCan(token).catch(() => {
      // Only this read's entry: a newer one (after forgetPermissions) is left as it is.
      if (cans.get(token) === reading) cans.delete(token);
      return NOTHING;
    });
    can = reading;
    cans.set(token, can);
  }
  return can;
}

async function readCapabilities(token: string, paths: string[]): Promise<Record<string, string[]>> {
  const { data } = await call<{ data: Record<string, string[]> }>('/v1/sys/capabilities-self', { method: 'POST', body: { paths }, token });
  return Object.fromEntries(paths.map((p) => [p, data.data[p] ?? ['deny']]));
}

const denied = (paths: string[]) => Object.fromEntries(paths.map((p) => [p, ['deny']]));

function capabilitiesFor(token: string | undefined, paths: string[]): Promise<Record<string, string[]>> {
  if (!token || paths.length === 0) return Promise.resolve(denied(paths));
  const key = JSON.stringify([token, paths]);
  let answer = capabilities.get(key);
  if (!answer) {
    // A refusal is not kept, as for the scheduler's rules; and only this read's entry is dropped.
    const reading: Promise<Record<string, string[]>> = readCapabilities(token, paths).catch(() => {
      if (capabilities.get(key) === reading) capabilities.delete(key);
      return denied(paths);
    });
    answer = reading;
    capabilities.set(key, answer);
  }
  return answer;
}

/** The token in use and a count that moves when the kept answers are dropped: what the hooks follow. */
function usePermissionKey(): [string | undefined, number] {
  const [token, setTokenState] = useState(currentToken());
  const [generation, setGeneration] = useState(0);
  useEffect(() => onTokenChange(() => setTokenState(currentToken())), []);
  useEffect(() => {
    const bump = () => setGeneration((g) => g + 1);
    listeners.add(bump);
    return () => void listeners.delete(bump);
  }, []);
  return [token, generation];
}

function useAnswer<T>(key: string, read: () => Promise<T>): T | undefined {
  const [held, setHeld] = useState<{ key: string; value: T }>();
  useEffect(() => {
    let current = true;
    read().then((value) => current && setHeld({ key, value }));
    return () => void (current = false);
  }, [key]);
  return held?.key === key ? held.value : undefined;
}

/** A count that moves each time forgetPermissions() runs: a view of what the token reaches reads again on it. */
export function usePermissionsVersion(): number {
  return usePermissionKey()[1];
}

/** What the token may do on the scheduler side; undefined until known. */
export function useCan(): Can | undefined {
  const [token, generation] = usePermissionKey();
  return useAnswer(JSON.stringify([token, generation]), () => canFor(token));
}

/** The token's capabilities on each secrets path (without /v1/), as sys/capabilities-self answers them; undefined until known. */
export function useCapabilities(paths: string[]): Record<string, string[]> | undefined {
  const [token, generation] = usePermissionKey();
  return useAnswer(JSON.stringify([token, generation, paths]), () => capabilitiesFor(token, paths));
}

/** Whether an answer of useCapabilities grants `capability` (a root token's answer, ["root"], grants all). */
export function granted(caps: string[] | undefined, capability: string): boolean {
  return caps !== undefined && !caps.includes('deny') && (caps.includes('root') || caps.includes(capability));
}
