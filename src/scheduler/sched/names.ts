/** Allocation names `<job>.<group>[<index>]`: stable indexes 0..count−1, reused lowest first. */

export function allocName(jobId: string, group: string, index: number): string {
  return `${jobId}.${group}[${index}]`;
}

export function allocIndex(name: string): number {
  const m = /\[(\d+)\]$/.exec(name);
  return m ? Number(m[1]) : -1;
}

/** The indexes taken in one group, and the choice of which to free or fill next (Nomad's allocNameIndex). */
export class NameIndex {
  private readonly taken = new Set<number>();

  constructor(
    private readonly jobId: string,
    private readonly group: string,
    private readonly count: number,
    names: Iterable<string>,
  ) {
    for (const n of names) {
      const i = allocIndex(n);
      if (i >= 0) this.taken.add(i);
    }
  }

  /** The `n` highest taken names: the ones to stop when the count shrinks. */
  highest(n: number): Set<string> {
    const sorted = [...this.taken].sort((a, b) => b - a).slice(0, n);
    return new Set(sorted.map((i) => allocName(this.jobId, this.group, i)));
  }

  unset(name: string): void {
    this.taken.delete(allocIndex(name));
  }

  /** `n` names for new allocations: free indexes below the count first, then reused ones from 0. */
  next(n: number): string[] {
    const out: string[] = [];
    for (let i = 0; i < this.count && out.length < n; i++) {
      if (this.taken.has(i)) continue;
      this.taken.add(i);
      out.push(allocName(this.jobId, this.group, i));
    }
    for (let i = 0; out.length < n; i++) out.push(allocName(this.jobId, this.group, i));
    return out;
  }
}
