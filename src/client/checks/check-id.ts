/**
 * A check's ID, as Nomad's NomadCheckID makes it: the MD5 (hex) of the allocation ID, the group name, the
 * check's task, and the settings that change what the check does, so that an in-place update that changes
 * a check gives it a new ID and a fresh result. Durations go in as Go's binary.Write of an int64
 * (little-endian nanoseconds), booleans as "true"/"false".
 */
import { createHash } from 'node:crypto';
import type { ServiceCheck } from '../../scheduler/structs/service.js';

function int64(ns: number): Buffer {
  const b = Buffer.alloc(8);
  b.writeBigInt64LE(BigInt(Math.trunc(ns)));
  return b;
}

/** `task` is the task the check belongs to: its own `task`, else the task of its service; "" for a group service's. */
export function nomadCheckId(allocId: string, group: string, task: string, c: ServiceCheck): string {
  const h = createHash('md5');
  for (const s of [allocId, group, task, c.Name, c.Type, c.PortLabel, c.OnUpdate, c.AddressMode]) h.update(s);
  h.update(int64(c.Interval));
  h.update(int64(c.Timeout));
  for (const s of [c.Protocol, c.Path, c.Method, String(c.TLSSkipVerify)]) h.update(s);
  return h.digest('hex');
}
