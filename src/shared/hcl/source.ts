import { UserError } from '../errors.js';

/** A place in a source file; line and column are 1-based as editors show them. */
export interface SourcePos {
  file: string;
  line: number;
  column: number;
}

/**
 * A problem in an HCL file that its author can fix, cited as file:line:column so an editor can jump there.
 * A position on line 0 (a text without positions) is cited by the file name alone.
 */
export class HclError extends UserError {
  readonly pos: SourcePos | undefined;
  constructor(message: string, pos?: SourcePos) {
    super(!pos ? message : pos.line > 0 ? `${pos.file}:${pos.line}:${pos.column}: ${message}` : `${pos.file}: ${message}`);
    this.pos = pos && pos.line > 0 ? pos : undefined;
  }
}

/** What a reader throws a syntax error as, so each kind of file keeps its own error class. */
export type HclErrorClass = new (message: string, pos: SourcePos) => Error;

/**
 * Turns an offset into a line/column lazily: positions are only needed when something fails. Without
 * positions (a text re-laid into a private buffer, as HCL-JSON strings are) it reports line 0, which
 * errors render as the file name alone rather than a misleading line.
 */
export class LineIndex {
  private starts: number[] | undefined;
  constructor(
    readonly file: string,
    private readonly text: string,
    private readonly positions = true,
  ) {}

  pos(offset: number): SourcePos {
    if (!this.positions) return { file: this.file, line: 0, column: 0 };
    if (!this.starts) {
      this.starts = [0];
      for (let i = 0; i < this.text.length; i++) if (this.text[i] === '\n') this.starts.push(i + 1);
    }
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.starts[mid] <= offset) lo = mid;
      else hi = mid - 1;
    }
    return { file: this.file, line: lo + 1, column: offset - this.starts[lo] + 1 };
  }
}
