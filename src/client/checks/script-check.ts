/**
 * A script check: the command runs inside its task, through the driver's exec path (the task's
 * environment, directory and isolation, as `alloc exec` runs it). Exit code 0 passes, any other fails;
 * stdout and stderr together are the output, cut at the output limit. A command still running at the
 * timeout is killed, with everything it started, and fails with Go's "context deadline exceeded".
 */
import type { ExecSession, PreparedExec } from '../../scheduler/wire/exec.js';
import { type CheckOutcome, OUTPUT_LIMIT } from './outcome.js';

/** Prepares the command inside the task: fails (task not running, no such program) before anything runs. */
export type ScriptExec = (command: string[]) => Promise<PreparedExec>;

export async function runScriptCheck(exec: ScriptExec, command: string[], timeoutMs: number, signal?: AbortSignal): Promise<CheckOutcome> {
  const deadline = Date.now() + timeoutMs;
  let session: ExecSession;
  try {
    session = await (await exec(command)).start();
  } catch (err) {
    return { Status: 'failure', Output: (err as Error).message };
  }
  const chunks: Buffer[] = [];
  let size = 0;
  session.onOutput((_stream, data) => {
    if (size >= OUTPUT_LIMIT) return;
    chunks.push(data);
    size += data.length;
  });
  session.closeStdin();
  const output = () => Buffer.concat(chunks).subarray(0, OUTPUT_LIMIT).toString('utf8');
  let timer: NodeJS.Timeout | undefined;
  let stop: (() => void) | undefined;
  const cut = new Promise<string>((resolve) => {
    timer = setTimeout(() => resolve('context deadline exceeded'), Math.max(0, deadline - Date.now()));
    timer.unref();
    stop = () => resolve('context canceled');
    if (signal?.aborted) stop();
    else signal?.addEventListener('abort', stop, { once: true });
  });
  try {
    const ended = await Promise.race([session.exited, cut]);
    if (typeof ended === 'string') {
      session.kill();
      return { Status: 'failure', Output: ended };
    }
    return { Status: ended.exitCode === 0 ? 'success' : 'failure', Output: output() };
  } finally {
    clearTimeout(timer);
    if (stop) signal?.removeEventListener('abort', stop);
  }
}
