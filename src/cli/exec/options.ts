/**
 * The -i, -t and -e flags of the exec-like commands (`svc alloc exec`, `svc job action`), read once and
 * checked as Nomad checks them.
 */
import type { CommandContext } from '../define.js';
import { UsageError } from '../../shared/errors.js';

export interface StreamOptions {
  /** forward stdin (-i); off, the command gets an empty stdin */
  stdin: boolean;
  /** run under a pseudo-terminal (-t) */
  tty: boolean;
  /** the escape byte (-e); undefined when escapes are off (`-e none`) */
  escape?: number;
}

/**
 * -t defaults to on when -i is and both stdin and stdout are terminals (Nomad's default): with stdout
 * redirected (`svc alloc exec ID cat f > copy`) a remote terminal would turn LF into CRLF in the copy.
 */
export function streamOptions(ctx: CommandContext): StreamOptions {
  const stdin = ctx.flags.i !== false;
  const tty = (ctx.flags.t as boolean | undefined) ?? (stdin && ctx.io.stdin.isTTY === true && ctx.io.stdout.isTTY === true);
  if (tty && !stdin) throw new UsageError('-i must be enabled if running with tty');
  const typed = String(ctx.flags.e ?? '~');
  if (typed === 'none') return { stdin, tty };
  const bytes = Buffer.from(typed, 'utf8');
  if (bytes.length !== 1) throw new UsageError("-e requires 'none' or a single character");
  return { stdin, tty, escape: bytes[0] };
}
