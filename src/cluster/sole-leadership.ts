import type { WriteTx } from '../storage/store.js';
import type { LeaderRecord, Leadership, ServerIdentity } from './leadership.js';
import { leadershipsTaken } from './telemetry.js';

/**
 * A server alone on its state (LMDB in its data dir, or memory) leads from its start to its stop: no other
 * server can write that state, so its writes need no fence.
 */
export class SoleLeadership implements Leadership {
  private leading = false;
  private since = 0;
  private onStepDown: (() => Promise<void> | void) | undefined;

  constructor(readonly self: ServerIdentity) {}

  isLeader(): boolean {
    return this.leading;
  }

  leader(): LeaderRecord | undefined {
    return this.leading ? { Term: 1, ID: this.self.ID, Name: this.self.Name, Address: this.self.Address, Since: this.since } : undefined;
  }

  knownLeader(): boolean {
    return this.leading;
  }

  lastContactMs(): number {
    return 0;
  }

  async start(hooks: { onLead(fence: (tx: WriteTx) => void): Promise<void> | void; onStepDown(): Promise<void> | void }): Promise<void> {
    this.onStepDown = hooks.onStepDown;
    this.leading = true;
    this.since = Date.now();
    leadershipsTaken.inc();
    await hooks.onLead(() => {});
  }

  async stop(): Promise<void> {
    if (!this.leading) return;
    this.leading = false;
    await this.onStepDown?.();
  }
}
