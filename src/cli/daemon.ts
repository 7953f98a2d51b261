/** What `svc server` and `svc agent` share as long-running processes. */
import type { Node } from '../scheduler/structs/node.js';

/**
 * Catches SIGINT and SIGTERM from this moment on, and answers the name of the first: the default action
 * would end the process without closing storage, or cut a status report short.
 */
export function stopSignal(): Promise<string> {
  return new Promise((resolve) => {
    process.once('SIGINT', () => resolve('SIGINT'));
    process.once('SIGTERM', () => resolve('SIGTERM'));
  });
}

/** The banner's lines about the node: a driver it cannot offer says why, so a job that needs it is not a mystery later. */
export function nodeBannerLines(node: Node): string[] {
  const drivers = Object.entries(node.Drivers);
  const usable = drivers.filter(([, d]) => d.Detected && d.Healthy).map(([name]) => name);
  const lines = [`                Node: ${node.Name} (${node.ID.slice(0, 8)}), datacenter ${node.Datacenter}, drivers: ${usable.join(', ') || 'none'}`];
  for (const [name, d] of drivers) if (!(d.Detected && d.Healthy)) lines.push(`                      ${name} unavailable: ${d.HealthDescription}`);
  return lines;
}
