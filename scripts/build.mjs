// Bundles the CLI and server into dist/ with esbuild. One bundled entry keeps `svc --help` and
// `svc version` close to a bare `node -e 0`; everything loaded with `await import()` becomes its own
// chunk and is read only by the commands that need it. Packages from node_modules stay external
// (native lmdb, the wasm HCL parser), so they are loaded from node_modules as usual.
import { build } from 'esbuild';
import { rm } from 'node:fs/promises';

await rm('dist', { recursive: true, force: true });
await build({
  entryPoints: { main: 'src/main.ts' },
  outdir: 'dist',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  packages: 'external',
  sourcemap: 'linked',
  chunkNames: 'chunks/[name]-[hash]',
  logLevel: 'warning',
});
