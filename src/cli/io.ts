/**
 * The terminal policy in one place: which streams are TTYs, whether colour is on, whether we may prompt.
 * Commands write data to `out` and everything else (progress, warnings) to `err`.
 */
import type { Readable, Writable } from 'node:stream';

export interface Io {
  stdin: Readable & { isTTY?: boolean };
  stdout: Writable & { isTTY?: boolean; columns?: number };
  stderr: Writable & { isTTY?: boolean };
  out(text: string): void;
  err(text: string): void;
  /** colour on stdout, decided from NO_COLOR, SVC_CLI_NO_COLOR, -no-color, -force-color and the TTY */
  color: boolean;
  /** the same for stderr (errors, warnings), whose terminal may be another or none */
  errColor: boolean;
  canPrompt: boolean;
}

export interface ColorOptions {
  noColor?: boolean;
  forceColor?: boolean;
  nonInteractive?: boolean;
}

export function createIo(
  streams: Pick<Io, 'stdin' | 'stdout' | 'stderr'>,
  env: NodeJS.ProcessEnv,
  opts: ColorOptions = {},
): Io {
  const envNoColor = env.NO_COLOR !== undefined && env.NO_COLOR !== '' ? true : env.SVC_CLI_NO_COLOR === 'true' || env.SVC_CLI_NO_COLOR === '1';
  const colourOn = (stream: { isTTY?: boolean }) => opts.forceColor === true || (!opts.noColor && !envNoColor && stream.isTTY === true);
  // stdin is read only when asked for: touching process.stdin creates the stream, which costs start-up time.
  return {
    get stdin() {
      return streams.stdin;
    },
    stdout: streams.stdout,
    stderr: streams.stderr,
    out: (text) => void streams.stdout.write(text.endsWith('\n') ? text : `${text}\n`),
    err: (text) => void streams.stderr.write(text.endsWith('\n') ? text : `${text}\n`),
    color: colourOn(streams.stdout),
    errColor: colourOn(streams.stderr),
    get canPrompt() {
      return !opts.nonInteractive && streams.stdin.isTTY === true && streams.stdout.isTTY === true;
    },
  };
}
