/**
 * Nodes that missed their heartbeats, marked down together: one write for all of them, whose
 * evaluations cover all their jobs at once (node-down-evals.ts).
 */
import type { Store } from '../../storage/store.js';
import { evaluateJobsOnDownNodes } from './node-down-evals.js';
import { NODES_TABLE, getNode, withStatus } from './nodes.js';
import { WriteKind } from '../events/kinds.js';

export interface NodesDownOptions {
  description: string;
  /**
   * Asked inside the write, just before each node is marked: false when the node has checked in since
   * it was found silent, so a heartbeat that arrives while the write waits for its turn still counts.
   */
  stillSilent: (nodeId: string) => boolean;
  /** see NodeDownEvalOptions.unsettled */
  unsettled?: ReadonlySet<string>;
}

/** Marks the nodes down; answers the ones it marked (not those already down, gone, or heard from again). */
export async function markNodesDown(store: Store, nodeIds: readonly string[], opts: NodesDownOptions): Promise<{ index: number; down: string[] }> {
  const { result: down, index } = await store.write((tx) => {
    tx.describe(WriteKind.NodeUpdateStatus);
    const marked: string[] = [];
    for (const id of nodeIds) {
      const node = getNode(tx, id);
      if (!node || node.Status === 'down' || !opts.stillSilent(id)) continue;
      tx.put(NODES_TABLE, id, withStatus(node, 'down', opts.description, tx.index));
      marked.push(id);
    }
    if (marked.length > 0) evaluateJobsOnDownNodes(tx, marked, { unsettled: opts.unsettled });
    return marked;
  });
  return { index, down };
}
