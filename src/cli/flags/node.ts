/** The flags that describe a node, shared by `svc server` (its own node) and `svc agent`, the -meta reader, and server addresses. */
import type { FlagSpec } from '../define.js';
import { UsageError } from '../../shared/errors.js';

export const NODE_FLAGS: FlagSpec[] = [
  { name: 'dc', type: 'string', description: 'Datacenter of the node. The default is dc1.', group: 'Node Options' },
  { name: 'node', type: 'string', description: 'Name of the node. The default is the host name.', group: 'Node Options' },
  { name: 'node-class', type: 'string', description: 'Class of the node, for constraints on ${node.class}.', group: 'Node Options' },
  { name: 'meta', type: 'strings', description: 'Node metadata as key=value, for constraints on ${meta.<key>}. Repeatable.', group: 'Node Options' },
];

/** The node's metadata: the config file's, with each -meta key=value over it. */
export function nodeMeta(items: string[] | undefined, fromFile: Record<string, string> | undefined): Record<string, string> {
  const meta: Record<string, string> = { ...fromFile };
  for (const item of items ?? []) {
    const eq = item.indexOf('=');
    if (eq <= 0) throw new UsageError(`invalid -meta "${item}": expected key=value`);
    meta[item.slice(0, eq)] = item.slice(eq + 1);
  }
  return meta;
}

/** A server's API address given on the command line, as its origin; `what` names the flag in the error. */
export function serverOrigin(value: string, what: string): string {
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:') || url.pathname !== '/' || url.search || url.hash) {
    throw new UsageError(`invalid ${what} "${value}": expected http(s)://host:port`);
  }
  return url.origin;
}
