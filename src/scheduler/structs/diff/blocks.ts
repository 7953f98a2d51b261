/**
 * Diffs of the blocks nested in groups and tasks: resources and networks, services and checks, templates,
 * volumes, scaling, identity and vault. Each returns null (or an empty list) when nothing changed.
 */
import type { NetworkResource, Port, RequestedDevice, Resources, DNSConfig } from '../resources.js';
import type { Service, ServiceCheck } from '../service.js';
import type { Spread } from '../constraint.js';
import type { ScalingPolicy } from '../policies.js';
import type { ChangeScript, Template, WorkloadIdentity } from '../task.js';
import type { VolumeRequest } from '../task-group.js';
import type { ObjectDiff } from './types.js';
import {
  contentKey,
  fieldDiffs,
  fullFlat,
  keyedDiffs,
  listOrNull,
  primitiveFlat,
  primitiveObjectDiff,
  primitiveObjectSetDiff,
  same,
  sideType,
  sortObjects,
  stringSetDiff,
  type Flat,
} from './primitives.js';

type Maybe<T> = T | null | undefined;

/** An object diff whose type comes from equality and which side exists, as most of Nomad's block diffs. */
function block(name: string, oldV: unknown, newV: unknown, fields: ObjectDiff['Fields'], objects: ObjectDiff[]): ObjectDiff {
  return { Type: sideType(oldV, newV), Name: name, Fields: fields, Objects: listOrNull(objects) };
}

export function resourcesDiff(o: Maybe<Resources>, n: Maybe<Resources>, contextual: boolean): ObjectDiff | null {
  if (same(o, n)) return null;
  const fields = fieldDiffs(primitiveFlat(o), primitiveFlat(n), contextual);
  const objects = [...networkDiffs(o?.Networks, n?.Networks, contextual), ...deviceDiffs(o?.Devices, n?.Devices, contextual)];
  return block('Resources', o, n, fields, objects);
}

function deviceDiffs(o: Maybe<RequestedDevice[]>, n: Maybe<RequestedDevice[]>, contextual: boolean): ObjectDiff[] {
  const diffs = keyedDiffs(o, n, (d) => d.Name, (a, b) =>
    same(a, b) ? null : block('Device', a, b, fieldDiffs(primitiveFlat(a), primitiveFlat(b), contextual), []),
  );
  return sortObjects(diffs);
}

/** Networks have no identity: a changed network is the old one Deleted and the new one Added. */
export function networkDiffs(o: Maybe<NetworkResource[]>, n: Maybe<NetworkResource[]>, contextual: boolean): ObjectDiff[] {
  const oldSet = new Map((o ?? []).map((v) => [contentKey(v), v]));
  const newSet = new Map((n ?? []).map((v) => [contentKey(v), v]));
  const out: ObjectDiff[] = [];
  for (const [k, v] of oldSet) if (!newSet.has(k)) out.push(networkDiff(v, null, contextual));
  for (const [k, v] of newSet) if (!oldSet.has(k)) out.push(networkDiff(null, v, contextual));
  return sortObjects(out);
}

function networkDiff(o: NetworkResource | null, n: NetworkResource | null, contextual: boolean): ObjectDiff {
  const filter = ['Device', 'CIDR', 'IP'];
  const fields = fieldDiffs(primitiveFlat(o, { filter }), primitiveFlat(n, { filter }), contextual);
  const objects = [
    ...portDiffs(o?.ReservedPorts, n?.ReservedPorts, false, contextual),
    ...portDiffs(o?.DynamicPorts, n?.DynamicPorts, true, contextual),
  ];
  const dns = dnsDiff(o?.DNS, n?.DNS, contextual);
  if (dns) objects.push(dns);
  return block('Network', o, n, fields, objects);
}

function portDiffs(o: Maybe<Port[]>, n: Maybe<Port[]>, dynamic: boolean, contextual: boolean): ObjectDiff[] {
  const name = dynamic ? 'Dynamic Port' : 'Static Port';
  const filter = dynamic ? ['Value'] : [];
  return sortObjects(keyedDiffs(o, n, (p) => p.Label, (a, b) => primitiveObjectDiff(a, b, name, contextual, { filter })));
}

function dnsDiff(o: Maybe<DNSConfig>, n: Maybe<DNSConfig>, contextual: boolean): ObjectDiff | null {
  if (same(o, n)) return null;
  const flat = (d: Maybe<DNSConfig>): Flat => {
    if (!d) return null;
    const m: Record<string, string> = {};
    for (const key of ['Servers', 'Searches', 'Options'] as const) if (d[key]?.length) m[key] = d[key]!.join(',');
    return m;
  };
  return block('DNS', o, n, fieldDiffs(flat(o), flat(n), contextual), []);
}

const SERVICE_MAPS = ['Meta', 'CanaryMeta', 'TaggedAddresses'];

/**
 * Services have no stable identity either; Nomad pairs them by score (same name 3, same port label 2,
 * same position 1; more than 2 needed), so a service edited in place shows as Edited.
 */
export function serviceDiffs(o: Maybe<Service[]>, n: Maybe<Service[]>, contextual: boolean): ObjectDiff[] {
  const olds = o ?? [];
  const news = n ?? [];
  if (olds.length === 1 && news.length === 1) {
    const d = serviceDiff(olds[0], news[0], contextual);
    return d ? [d] : [];
  }
  const taken = news.map(() => false);
  const out: ObjectDiff[] = [];
  olds.forEach((svc, index) => {
    let best = -1;
    let bestScore = 0;
    news.forEach((cand, i) => {
      if (taken[i]) return;
      const score = (i === index ? 1 : 0) + (svc.PortLabel === cand.PortLabel ? 2 : 0) + (svc.Name === cand.Name ? 3 : 0);
      if (score > 2 && score > bestScore) {
        bestScore = score;
        best = i;
      }
    });
    if (best >= 0) taken[best] = true;
    const d = serviceDiff(svc, best >= 0 ? news[best] : null, contextual);
    if (d) out.push(d);
  });
  news.forEach((svc, i) => {
    if (!taken[i]) out.push(serviceDiff(null, svc, contextual)!);
  });
  return sortObjects(out);
}

function serviceDiff(o: Service | null, n: Service | null, contextual: boolean): ObjectDiff | null {
  if (same(o, n)) return null;
  const fields = fieldDiffs(primitiveFlat(o, { maps: SERVICE_MAPS }), primitiveFlat(n, { maps: SERVICE_MAPS }), contextual);
  const objects: ObjectDiff[] = [];
  const canary = stringSetDiff(o?.CanaryTags, n?.CanaryTags, 'CanaryTags', contextual);
  if (canary) objects.push(canary);
  const tags = stringSetDiff(o?.Tags, n?.Tags, 'Tags', contextual);
  if (tags) objects.push(tags);
  objects.push(...sortObjects(keyedDiffs(o?.Checks, n?.Checks, (c) => c.Name, (a, b) => checkDiff(a, b, contextual))));
  if (!same(o?.Connect, n?.Connect)) {
    const connect = fieldDiffs(fullFlat(o?.Connect, { style: 'struct' }), fullFlat(n?.Connect, { style: 'struct' }), contextual);
    objects.push(block('ConsulConnect', o?.Connect, n?.Connect, connect, []));
  }
  return block('Service', o, n, fields, objects);
}

function checkDiff(o: ServiceCheck | null, n: ServiceCheck | null, contextual: boolean): ObjectDiff | null {
  if (same(o, n)) return null;
  const objects: ObjectDiff[] = [];
  if (!same(o?.Header, n?.Header)) {
    const type = !o?.Header || Object.keys(o.Header).length === 0 ? 'Added' : !n?.Header || Object.keys(n.Header).length === 0 ? 'Deleted' : 'Edited';
    objects.push({ Type: type, Name: 'Header', Fields: fieldDiffs(fullFlat(o?.Header), fullFlat(n?.Header), contextual), Objects: null });
  }
  if (!same(o?.CheckRestart, n?.CheckRestart)) {
    objects.push(block('CheckRestart', o?.CheckRestart, n?.CheckRestart, fieldDiffs(primitiveFlat(o?.CheckRestart), primitiveFlat(n?.CheckRestart), contextual), []));
  }
  return block('Check', o, n, fieldDiffs(primitiveFlat(o), primitiveFlat(n), contextual), objects);
}

/** Templates are paired by destination (a lone template on each side is always a pair). */
export function templateDiffs(o: Maybe<Template[]>, n: Maybe<Template[]>, contextual: boolean): ObjectDiff[] {
  const olds = o ?? [];
  const news = n ?? [];
  if (olds.length === 1 && news.length === 1) {
    const d = templateDiff(olds[0], news[0], contextual);
    return d ? [d] : [];
  }
  const taken = news.map(() => false);
  const out: ObjectDiff[] = [];
  for (const t of olds) {
    const i = news.findIndex((cand, idx) => !taken[idx] && cand.DestPath === t.DestPath);
    if (i >= 0) taken[i] = true;
    const d = templateDiff(t, i >= 0 ? news[i] : null, contextual);
    if (d) out.push(d);
  }
  news.forEach((t, i) => {
    if (!taken[i]) out.push(templateDiff(null, t, contextual)!);
  });
  return sortObjects(out);
}

function templateFlat(t: Template | null): Flat {
  const flat = primitiveFlat(t, { filter: ['Uid', 'Gid'] });
  if (flat && t?.Uid !== null && t?.Uid !== undefined) flat.Uid = String(t.Uid);
  if (flat && t?.Gid !== null && t?.Gid !== undefined) flat.Gid = String(t.Gid);
  return flat;
}

function templateDiff(o: Template | null, n: Template | null, contextual: boolean): ObjectDiff | null {
  if (same(o, n)) return null;
  const objects: ObjectDiff[] = [];
  // Nomad names this object "Template" as well; "Wait" says which block it is.
  if (!same(o?.Wait, n?.Wait)) {
    objects.push(block('Wait', o?.Wait, n?.Wait, fieldDiffs(fullFlat(o?.Wait, { ints: true }), fullFlat(n?.Wait, { ints: true }), contextual), []));
  }
  const script = changeScriptDiff(o?.ChangeScript, n?.ChangeScript, contextual);
  if (script) objects.push(script);
  return block('Template', o, n, fieldDiffs(templateFlat(o), templateFlat(n), contextual), objects);
}

function changeScriptDiff(o: Maybe<ChangeScript>, n: Maybe<ChangeScript>, contextual: boolean): ObjectDiff | null {
  if (same(o, n)) return null;
  const args = stringSetDiff(o?.Args, n?.Args, 'Args', contextual);
  return block('ChangeScript', o, n, fieldDiffs(primitiveFlat(o), primitiveFlat(n), contextual), args ? [args] : []);
}

export function volumeDiffs(o: Maybe<Record<string, VolumeRequest>>, n: Maybe<Record<string, VolumeRequest>>, contextual: boolean): ObjectDiff[] {
  if (same(o, n)) return [];
  const names = [...new Set([...Object.keys(o ?? {}), ...Object.keys(n ?? {})])];
  const out: ObjectDiff[] = [];
  for (const name of names) {
    const a = o?.[name] ?? null;
    const b = n?.[name] ?? null;
    if (same(a, b)) continue;
    const objects: ObjectDiff[] = [];
    if (!same(a?.MountOptions, b?.MountOptions)) {
      const flags = stringSetDiff(a?.MountOptions?.MountFlags, b?.MountOptions?.MountFlags, 'MountFlags', contextual);
      const mo = fieldDiffs(primitiveFlat(a?.MountOptions), primitiveFlat(b?.MountOptions), contextual);
      objects.push(block('MountOptions', a?.MountOptions, b?.MountOptions, mo, flags ? [flags] : []));
    }
    out.push(block('Volume', a, b, fieldDiffs(primitiveFlat(a), primitiveFlat(b), contextual), objects));
  }
  return sortObjects(out);
}

/** The scaling policy, without what the server assigns (ID, indexes, target); never contextual, as in Nomad. */
export function scalingDiff(o: Maybe<ScalingPolicy>, n: Maybe<ScalingPolicy>): ObjectDiff | null {
  const strip = (p: Maybe<ScalingPolicy>) => (p ? { ...p, ID: '', CreateIndex: 0, ModifyIndex: 0 } : null);
  if (same(strip(o), strip(n))) return null;
  const opts = { maps: ['Target'], filter: ['CreateIndex', 'ModifyIndex', 'ID', 'Type', 'Target[Job]', 'Target[Group]', 'Target[Namespace]'] };
  // Nomad's flatten never sees the fields of a missing side, so a new policy's fields are all Added.
  const fields = fieldDiffs(primitiveFlat(o, opts), primitiveFlat(n, opts), false);
  const objects: ObjectDiff[] = [];
  if (!same(o?.Policy, n?.Policy)) {
    const empty = (p: Maybe<Record<string, unknown>>) => !p || Object.keys(p).length === 0;
    const type = empty(o?.Policy) ? 'Added' : empty(n?.Policy) ? 'Deleted' : 'Edited';
    objects.push({ Type: type, Name: 'Policy', Fields: fieldDiffs(fullFlat(o?.Policy), fullFlat(n?.Policy), false), Objects: null });
  }
  return block('Scaling', o, n, fields, objects);
}

export function identityDiff(o: Maybe<WorkloadIdentity>, n: Maybe<WorkloadIdentity>, contextual: boolean): ObjectDiff | null {
  if (same(o, n)) return null;
  const opts = { maps: ['ExtraClaims'] };
  return block('Identity', o, n, fieldDiffs(primitiveFlat(o, opts), primitiveFlat(n, opts), contextual), []);
}

/** Any struct of primitives whose type Nomad takes from equality (Vault, Lifecycle). */
export function simpleBlockDiff(name: string, o: object | null | undefined, n: object | null | undefined, contextual: boolean): ObjectDiff | null {
  if (same(o, n)) return null;
  return block(name, o, n, fieldDiffs(primitiveFlat(o), primitiveFlat(n), contextual), []);
}

/**
 * Spreads, compared as a set like constraints. Nomad does not diff spreads at all (a changed spread gives
 * an Edited group with nothing in it); svc shows them, with their targets.
 */
export function spreadDiffs(o: Maybe<Spread[]>, n: Maybe<Spread[]>, contextual: boolean): ObjectDiff[] {
  const oldSet = new Map((o ?? []).map((v) => [contentKey(v), v]));
  const newSet = new Map((n ?? []).map((v) => [contentKey(v), v]));
  const one = (a: Spread | null, b: Spread | null): ObjectDiff => {
    const targets = primitiveObjectSetDiff(a?.SpreadTarget, b?.SpreadTarget, 'SpreadTarget', contextual);
    return block('Spread', a, b, fieldDiffs(primitiveFlat(a), primitiveFlat(b), contextual), targets);
  };
  const out: ObjectDiff[] = [];
  for (const [k, v] of oldSet) if (!newSet.has(k)) out.push(one(v, null));
  for (const [k, v] of newSet) if (!oldSet.has(k)) out.push(one(null, v));
  return sortObjects(out);
}
