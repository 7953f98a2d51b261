/** Where the executor script is, so that the drivers can start it with `process.execPath`. */
import path from 'node:path';

/**
 * executor.cjs sits next to this module in the source tree, and next to the bundle that contains this
 * module in dist/ (the build copies it there). Both ways this code runs define `__dirname`: the
 * CommonJS bundles, and vitest, which provides it to the ES modules it loads. (`import.meta.url` would
 * be empty in the bundles.)
 */
export function executorPath(): string {
  return path.join(__dirname, 'executor.cjs');
}
