/**
 * A node that answers for its allocations without running anything, through the node API as a real node
 * does: it follows what it must run with blocking pulls, reports each allocation placed on it as running
 * and each one it is told to stop as complete. It reports a migration replacement healthy when asked to
 * (`healthy`), or when a test calls reportHealthy, so tests decide when a replacement has proven itself.
 */
import { ApiClient } from '../../src/api/http/client.js';
import type { FakeNode } from './nodes.js';

interface PulledAlloc {
  ID: string;
  DesiredStatus: string;
  ClientStatus: string;
  PreviousAllocation: string;
  AllocModifyIndex: number;
}

export class SimNode {
  private stopped = false;
  private loop: Promise<void> | undefined;
  private readonly abort = new AbortController();
  private readonly api: ApiClient;

  constructor(
    url: string,
    readonly fake: FakeNode,
    private readonly opts: { healthy?: boolean } = {},
  ) {
    this.api = new ApiClient({ address: url, token: fake.secret });
  }

  get id(): string {
    return this.fake.node.ID;
  }

  start(): this {
    this.loop ??= this.run();
    return this;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.abort.abort();
    await this.loop;
  }

  /** Reports a running allocation of this node healthy (a migration replacement proving itself). */
  async reportHealthy(allocId: string): Promise<void> {
    await this.report([{ ID: allocId, ClientStatus: 'running', ClientDescription: '', TaskStates: {}, DeploymentStatus: { Healthy: true, Timestamp: new Date().toISOString() } }]);
  }

  /** Reports allocations of this node finished (a batch job's work done). */
  async reportComplete(...allocIds: string[]): Promise<void> {
    await this.report(allocIds.map((ID) => ({ ID, ClientStatus: 'complete', ClientDescription: '', TaskStates: {} })));
  }

  private async report(Allocs: unknown[]): Promise<void> {
    await this.api.scheduler('POST', `/v1/node/${this.id}/client-allocations`, { body: { Allocs } });
  }

  private async run(): Promise<void> {
    let index = 0;
    let since = 0;
    while (!this.stopped) {
      try {
        const { body } = await this.api.scheduler<{ Changed: PulledAlloc[]; Index: number }>('GET', `/v1/node/${this.id}/client-allocations`, {
          query: { index, since, wait: '5s' },
          signal: this.abort.signal,
        });
        const updates: unknown[] = [];
        for (const a of body.Changed) {
          since = Math.max(since, a.AllocModifyIndex);
          const status = a.DesiredStatus === 'run' ? 'running' : 'complete';
          if (status === a.ClientStatus || (a.ClientStatus !== 'pending' && a.ClientStatus !== 'running')) continue;
          const healthy = status === 'running' && this.opts.healthy && a.PreviousAllocation !== '';
          updates.push({
            ID: a.ID,
            ClientStatus: status,
            ClientDescription: '',
            TaskStates: {},
            ...(healthy ? { DeploymentStatus: { Healthy: true, Timestamp: new Date().toISOString() } } : {}),
          });
        }
        index = body.Index;
        if (updates.length > 0) await this.report(updates);
      } catch (err) {
        if (this.stopped) return;
        throw err;
      }
    }
  }
}
