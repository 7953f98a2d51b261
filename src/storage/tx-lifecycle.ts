/**
 * What every backend's WriteTx does alike around its reads and writes: it is usable only while its write
 * function runs, and it runs the beforeCommit functions once that function has returned.
 */
export abstract class TxLifecycle {
  /** Cleared when fn returns: a tx captured and used later would otherwise write outside any transaction. */
  live = true;
  private readonly ending: Array<() => void> = [];
  /** what the write is, once its function said (WriteTx.describe) */
  kind: string | undefined;

  beforeCommit(fn: () => void): void {
    this.check();
    this.ending.push(fn);
  }

  describe(kind: string): void {
    this.check();
    this.kind ??= kind;
  }

  /** Runs the beforeCommit functions (those they add too), once fn has returned. */
  end(): void {
    for (let i = 0; i < this.ending.length; i++) this.ending[i]();
  }

  protected check(): void {
    if (!this.live) throw new Error('store: transaction used after its write function returned');
  }
}
