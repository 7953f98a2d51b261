/**
 * The main script of the single executable (dist/svc-linux-x64, built by scripts/package.mjs): what
 * bin/svc is to an install from npm. Node runs it with a require() limited to built-in modules, so it
 * unpacks the carried files (unpack.ts) and loads svc from there with a require() of its own.
 *
 * In the executable process.execPath is svc itself, so code that starts one of svc's scripts as
 * `process.execPath <script> args...` (the server starts the task executor that way, and the executor
 * starts itself again as the exec driver's init) runs this too. An absolute path into this build's
 * unpack directory as the first argument is such a start: the script runs, with the argv node would give
 * it. svc's own commands never start with a path, so nothing a user types is taken for one.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import { buildId, unpacked, type SeaBuild } from './unpack.js';

/** Set by scripts/package.mjs when it bundles this file. */
declare const SVC_SEA_BUILD: SeaBuild;

/** One line, as bin/svc and src/main.ts report a failure (the stack with SVC_DEBUG=1). */
function fail(err: unknown): void {
  const e = err instanceof Error ? err : new Error(String(err));
  process.stderr.write(`Error: ${e.message.split('\n')[0]}\n${process.env.SVC_DEBUG === '1' ? `${e.stack}\n` : ''}`);
  process.exitCode = 1;
}

const isOwnScript = (arg: string | undefined): arg is string =>
  arg !== undefined && path.isAbsolute(arg) && path.basename(path.dirname(path.dirname(arg))) === buildId(SVC_SEA_BUILD);

const script = process.argv[2];
if (isOwnScript(script)) {
  // node's argv for `node <script> args...`; here argv[1] is the executable again.
  process.argv.splice(1, 1);
  createRequire(script)(script);
} else {
  unpacked(SVC_SEA_BUILD, process.env).then((dir) => {
    let cli: { main(argv: string[]): Promise<void> } | undefined;
    try {
      const main = path.join(dir, 'dist', 'main.cjs');
      cli = createRequire(main)(main);
    } catch (err) {
      fail(err);
    }
    if (cli) void cli.main(process.argv.slice(2));
  }, fail);
}
