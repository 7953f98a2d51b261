/**
 * The "connecting" spinner of the exec-like commands: on stderr, and only when stderr is a terminal, so
 * scripts and captured output never see it. ora is loaded only then (it costs some 90 ms to load).
 */
import type { Io } from '../io.js';

export interface Spinner {
  /** idempotent; must run before the first byte of output and before any prompt */
  stop(): void;
}

export async function startSpinner(io: Io, text: string): Promise<Spinner> {
  if (io.stderr.isTTY !== true) return { stop() {} };
  const mod = await import('ora');
  // ora is an ES module. The CLI's bundles turn import() into require() (scripts/build.mjs), and esbuild's
  // Node-mode interop then hands over the whole module namespace as `default`: unwrap it once more.
  const loaded = mod.default as typeof mod.default | { default: typeof mod.default };
  const ora = typeof loaded === 'function' ? loaded : loaded.default;
  // discardStdin would put stdin in raw mode behind the session's back; the cursor is left alone so that
  // nothing but raw mode needs restoring.
  const spinner = ora({ text, stream: io.stderr, discardStdin: false, hideCursor: false, color: io.color ? 'cyan' : false }).start();
  return { stop: () => void (spinner.isSpinning && spinner.stop()) };
}
