/**
 * The escape sequence of a terminal session, as ssh and Nomad read it: ESCAPE typed at the start of a
 * line (the first byte of the session, or after a CR or LF) is held back; ESCAPE then `.` ends the
 * session, ESCAPE ESCAPE sends one ESCAPE, and ESCAPE then anything else sends both bytes. Anywhere
 * else on a line ESCAPE is an ordinary byte, so `~/path` mid-line is typed as is.
 *
 * A pure state machine over the bytes read from the terminal, so it can be fed chunk by chunk: an
 * ESCAPE at the end of one chunk waits for the next.
 */
export class EscapeFilter {
  private atLineStart = true;
  private holding = false;

  constructor(private readonly escape: number) {}

  /** The bytes to send for this chunk, and whether the user asked to close the session. */
  push(chunk: Buffer): { data: Buffer; close: boolean } {
    const out: number[] = [];
    for (const byte of chunk) {
      if (this.holding) {
        this.holding = false;
        if (byte === 0x2e /* . */) return { data: Buffer.from(out), close: true };
        out.push(this.escape);
        // ESCAPE ESCAPE is one literal ESCAPE, which does not start a new escape.
        if (byte === this.escape) {
          this.atLineStart = false;
          continue;
        }
      } else if (this.atLineStart && byte === this.escape) {
        this.holding = true;
        continue;
      }
      out.push(byte);
      this.atLineStart = byte === 0x0d || byte === 0x0a;
    }
    return { data: Buffer.from(out), close: false };
  }
}
