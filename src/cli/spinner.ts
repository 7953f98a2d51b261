/**
 * Progress for the waits of the CLI (connecting, logging in, following an evaluation or a deployment): an
 * ora spinner on stderr, only when stderr is a terminal, so scripts and captured output never get a byte
 * of it, and only once the wait has lasted SPINNER_DELAY_MS, so quick answers show nothing. While it
 * spins, ora takes it off the screen around every line the command writes (stdout or stderr) and draws
 * it again below. ora is loaded when a spinner is about to show (it costs some 45 ms to load).
 *
 * Ctrl-C ends most waits by Node's default action for SIGINT, which would leave the spinner's line on
 * the screen: while one spins, SIGINT takes it off first, then (when nothing else listens for the
 * signal) is raised again so the process ends as it would have.
 */
import type { Io } from './io.js';

/** How long a wait lasts before its spinner shows. */
export const SPINNER_DELAY_MS = 300;

export interface Spinner {
  /** what the spinner says from now on */
  update(text: string): void;
  /** takes the spinner off the screen; idempotent; must run before a prompt and before the command ends */
  stop(): void;
}

/** The streams a spinner needs: absent in the tests of what only prints lines. */
export type SpinnerIo = Partial<Pick<Io, 'stderr' | 'errColor'>>;

interface Ora {
  text: string;
  isSpinning: boolean;
  stop(): unknown;
}

const NONE: Spinner = { update() {}, stop() {} };

export function startSpinner(io: SpinnerIo, text: string): Spinner {
  const stream = io.stderr;
  if (stream?.isTTY !== true) return NONE;
  let stopped = false;
  let spinner: Ora | undefined;
  const show = async () => {
    const mod = await import('ora');
    // ora is an ES module. The CLI's bundles turn import() into require() (scripts/build.mjs), and esbuild's
    // Node-mode interop then hands over the whole module namespace as `default`: unwrap it once more.
    const loaded = mod.default as typeof mod.default | { default: typeof mod.default };
    const ora = typeof loaded === 'function' ? loaded : loaded.default;
    if (stopped) return;
    // discardStdin would put stdin in raw mode behind a prompt's or an exec session's back; the cursor is
    // left alone so that nothing needs restoring when the command is interrupted.
    // Before the first frame: without a listener, a SIGINT ends the process at once, whatever was drawn.
    process.once('SIGINT', interrupted);
    spinner = ora({ text, stream, discardStdin: false, hideCursor: false, isEnabled: true, color: io.errColor ? 'cyan' : false }).start();
  };
  const interrupted = () => {
    if (spinner?.isSpinning) spinner.stop();
    // Other listeners (a follow that ends quietly on Ctrl-C) got this signal too and decide what follows.
    if (process.listenerCount('SIGINT') === 0) process.kill(process.pid, 'SIGINT');
  };
  const timer = setTimeout(() => {
    // Progress is a courtesy: a spinner that cannot load leaves the command to go on without it.
    show().catch(() => undefined);
  }, SPINNER_DELAY_MS);
  timer.unref();
  return {
    update(next) {
      text = next;
      if (spinner) spinner.text = next;
    },
    stop() {
      stopped = true;
      clearTimeout(timer);
      process.off('SIGINT', interrupted);
      if (spinner?.isSpinning) spinner.stop();
    },
  };
}

/** Runs `wait` with a spinner saying `text`, and takes the spinner away when it ends, however it ends. */
export async function withSpinner<T>(io: SpinnerIo, text: string, wait: (spinner: Spinner) => Promise<T>): Promise<T> {
  const spinner = startSpinner(io, text);
  try {
    return await wait(spinner);
  } finally {
    spinner.stop();
  }
}
