/**
 * Where a request that reaches into an allocation's node is answered: here when this server reaches the
 * node (in its process, or through its tunnel), else at the server that does (node-holders.ts). Asked
 * before the caller is authenticated, as a follower forwards to the leader: the server that answers
 * checks who asks. A forwarded request is never forwarded again, so two servers whose copies of the
 * state disagree for a moment cannot pass it back and forth.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { holderElsewhere } from '../../cluster/node-holders.js';
import { FORWARDED_HEADER } from '../../cluster/node-forwarder.js';
import type { SchedulerContext } from '../context.js';
import { getAlloc } from '../state/allocs.js';
import { UUID } from '../../shared/ids.js';


/** The address of the server to forward to, or undefined to answer here. */
export function nodeServerFor(services: SchedulerContext, allocId: string, headers: IncomingHttpHeaders): string | undefined {
  if (headers[FORWARDED_HEADER] !== undefined || !UUID.test(allocId)) return undefined;
  const alloc = getAlloc(services.store, allocId);
  if (!alloc || services.scheduler.nodeControl(alloc.NodeID)) return undefined;
  return holderElsewhere(services.store, alloc.NodeID, services.leadership.self.ID)?.Address;
}
