import pg from 'pg';
import { CHANNEL } from './pg-queries.js';
import { catchUp } from './pg-replica.js';
import type { Replica } from './replica.js';

/**
 * Keeps the replica following the other processes' writes: each commit's NOTIFY starts a catch-up at
 * once, and a poll catches up anyway, for a notification lost with a connection. A failed catch-up is
 * left to the next poll: meanwhile reads answer the last state the replica reached.
 */

const POLL_MS = 1_000;

export class LogFollower {
  private listener: pg.Client | undefined;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  private stopped = false;

  constructor(
    private readonly connection: pg.ClientConfig,
    private readonly pool: pg.Pool,
    private readonly replica: Replica,
  ) {}

  /**
   * Listens, before the store reads its first snapshot: a commit made while it reads is then heard of by
   * the catch-up that follow() starts, rather than by nobody.
   */
  start(): Promise<void> {
    return this.listen();
  }

  /** Catches up from now on, at once and on every notification and poll: the replica holds a snapshot. */
  follow(): void {
    this.timer = setInterval(() => void this.catchUp(), POLL_MS);
    this.timer.unref();
    void this.catchUp();
  }

  /** Resolves once a catch-up that started after this call has ended (successfully or not). */
  catchUp(): Promise<void> {
    if (this.stopped) return Promise.resolve();
    if (this.running !== undefined) {
      this.again = true;
      return this.running;
    }
    this.running = (async () => {
      do {
        this.again = false;
        await this.catchUpOnce().catch(() => {});
      } while (this.again && !this.stopped);
      this.running = undefined;
    })();
    return this.running;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await this.running;
    await this.listener?.end().catch(() => {});
    this.listener = undefined;
  }

  private async catchUpOnce(): Promise<void> {
    const client = await this.pool.connect();
    try {
      await catchUp(client, this.replica, false);
      client.release();
    } catch (err) {
      // Its session is in an unknown state: close it rather than hand it to the next user.
      client.release(true);
      throw err;
    }
  }

  private async listen(): Promise<void> {
    const client = new pg.Client(this.connection);
    client.on('notification', (msg) => {
      if (this.timer !== undefined && Number(msg.payload) > this.replica.index) void this.catchUp();
    });
    client.on('error', () => this.lost(client));
    client.on('end', () => this.lost(client));
    try {
      await client.connect();
      await client.query(`LISTEN ${CHANNEL}`);
    } catch (err) {
      await client.end().catch(() => {});
      throw err;
    }
    if (this.stopped) {
      await client.end().catch(() => {});
      return;
    }
    this.listener = client;
  }

  private lost(client: pg.Client): void {
    if (this.stopped || this.listener !== client) return;
    this.listener = undefined;
    client.end().catch(() => {});
    this.relisten();
  }

  private relisten(): void {
    const timer = setTimeout(() => {
      if (this.stopped) return;
      this.listen().then(
        () => this.catchUp(),
        () => this.relisten(),
      );
    }, POLL_MS);
    timer.unref();
  }
}
