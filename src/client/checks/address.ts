/**
 * Where an http or tcp check connects, as Nomad's checker resolves it: the check's own port label, else
 * its service's, looked up in the allocation's ports (host IP and host port); a number instead of a label
 * is a port on the node's address. A service with a custom `address` lends it to its checks unless the
 * check names an address mode of its own. svc's tasks share the host's network, so every other address
 * mode resolves to the host's address too.
 */
import type { Allocation } from '../../scheduler/structs/allocation.js';
import type { Service, ServiceCheck } from '../../scheduler/structs/service.js';

export interface CheckTarget {
  host: string;
  /** 0 when neither the check nor its service names a port */
  port: number;
}

function networkIp(alloc: Allocation): string {
  const networks = (alloc.AllocatedResources?.Shared?.Networks ?? []) as Array<{ IP?: string }>;
  return networks.find((n) => n.IP)?.IP ?? '';
}

export function checkTarget(alloc: Allocation, service: Service, check: ServiceCheck): CheckTarget {
  const label = check.PortLabel || service.PortLabel;
  const mapped = label ? alloc.AllocatedResources?.Shared?.Ports?.find((p) => p.Label === label) : undefined;
  let port = mapped?.Value ?? 0;
  if (label && !mapped) {
    if (!/^\d+$/.test(label)) throw new Error(`invalid port "${label}": port label not found`);
    port = Number(label);
    if (port <= 0) throw new Error(`invalid port: "${label}": port must be >0`);
  }
  const custom = service.Address && (check.AddressMode === '' || check.AddressMode === 'auto') ? service.Address : '';
  const host = custom || mapped?.HostIP || networkIp(alloc) || '127.0.0.1';
  return { host, port };
}

/** `host:port` with brackets around an IPv6 address, as Go's net.JoinHostPort; the host alone without a port. */
export function joinHostPort(t: CheckTarget): string {
  const host = t.host.includes(':') ? `[${t.host}]` : t.host;
  return t.port > 0 ? `${host}:${t.port}` : host;
}
