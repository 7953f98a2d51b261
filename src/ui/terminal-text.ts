/**
 * A task's output made plain text for the page: the terminal's control sequences (colours, cursor
 * moves, window titles) are dropped, and any other control character but newline and tab is shown as
 * its visible picture (␛, ␇, …), so what the page shows is what was printed, nothing of it acted on.
 * A sequence cut in two by the stream's chunks is held back until the rest arrives.
 */

/** CSI (ESC [ … final), OSC (ESC ] … BEL or ESC \), character set choices (ESC ( B), and two-character escapes. */
const SEQUENCE = /\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[()*+][ -~]|\x1b[@-Z\\-_]/g;

/** A sequence begun at the end of a chunk and not finished in it. */
const UNFINISHED = /\x1b(?:\[[0-?]*[ -/]*|\][^\x07\x1b]*\x1b?|[()*+])?$/;

const CONTROL = /[\x00-\x08\x0b-\x1f\x7f]/g;

const picture = (c: string) => (c === '\x7f' ? '\u2421' : String.fromCharCode(0x2400 + c.charCodeAt(0)));

export class TerminalText {
  private held = '';

  /** The displayable text of what the stream gave so far that is complete. */
  push(chunk: string): string {
    let text = this.held + chunk;
    const cut = UNFINISHED.exec(text);
    this.held = cut ? cut[0] : '';
    if (cut) text = text.slice(0, cut.index);
    return plain(text);
  }

  /** What was held back, once the stream has ended. */
  flush(): string {
    const rest = this.held;
    this.held = '';
    return plain(rest);
  }
}

function plain(text: string): string {
  // A carriage return before a newline is a line ending; any other moves the cursor, which a page cannot.
  return text.replace(SEQUENCE, '').replace(/\r\n/g, '\n').replace(CONTROL, picture);
}
