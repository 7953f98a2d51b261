/**
 * How long this process's event loop has stalled, in total, measured by timer drift: a short timer that
 * fires later than its period says the loop was held (a long synchronous task, a GC pause) for the
 * difference. Node liveness runs on a clock that stands still while the loop is held, so the server's own
 * lateness in reading heartbeats is not counted against the nodes.
 */
export interface StallSource {
  /** ms the loop has been held since measuring began, including a stall still going on */
  stalledMs(): number;
}

/** Short enough that little of a stall goes unseen, long enough to cost nothing. */
const PERIOD_MS = 50;

export class LoopStalls implements StallSource {
  private timer: NodeJS.Timeout | undefined;
  private last = 0;
  private total = 0;

  constructor(private readonly now: () => number = () => performance.now()) {}

  start(): void {
    if (this.timer) return;
    this.last = this.now();
    this.timer = setInterval(() => {
      const now = this.now();
      this.total += Math.max(0, now - this.last - PERIOD_MS);
      this.last = now;
    }, PERIOD_MS);
    this.timer.unref();
  }

  stalledMs(): number {
    // A stall still going on: whoever asks runs late too, before the timer could say so.
    return this.timer ? this.total + Math.max(0, this.now() - this.last - PERIOD_MS) : this.total;
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }
}
