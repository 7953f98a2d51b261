/** The tunnels of the nodes connected to this server, by node ID: at most one per node, the latest. */
import type { Duplex } from 'node:stream';
import type { WebSocket } from 'ws';
import type { NodeControl } from '../wire/node-control.js';
import { NodeTunnel } from './node-tunnel.js';

export class NodeTunnels {
  private readonly byNode = new Map<string, NodeTunnel>();

  /** How many node tunnels are open. */
  get size(): number {
    return this.byNode.size;
  }

  /**
   * The node's new control socket. It replaces the one the node had here, whose end the server may not
   * have noticed yet (a node only connects again once its own end closed). `onClose` runs when this one
   * closes.
   */
  attach(nodeId: string, ws: WebSocket, onClose: (tunnel: NodeTunnel) => void): NodeTunnel {
    this.byNode.get(nodeId)?.close();
    const tunnel = new NodeTunnel(nodeId, ws, () => {
      if (this.byNode.get(nodeId) === tunnel) this.byNode.delete(nodeId);
      onClose(tunnel);
    });
    this.byNode.set(nodeId, tunnel);
    return tunnel;
  }

  /** A data connection the node dialed: false when its tunnel here asked for no such stream. */
  accept(nodeId: string, streamId: string, socket: Duplex): boolean {
    return this.byNode.get(nodeId)?.accept(streamId, socket) ?? false;
  }

  control(nodeId: string): NodeControl | undefined {
    return this.byNode.get(nodeId)?.control;
  }

  closeAll(): void {
    for (const tunnel of this.byNode.values()) tunnel.close();
    this.byNode.clear();
  }
}
