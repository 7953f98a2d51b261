// Bundles svc into CommonJS files:
//   dist/main.cjs     the CLI: every command, the argv parser, output, the API client;
//   dist/server.cjs   the embedded server, loaded only by `svc server`;
//   dist/jobspec.cjs  the job file parser, loaded only by job commands.
// Start-up then compiles one small file and links no ES modules, which keeps `svc version` and
// `svc --help` close to a bare `node -e 0`. Inside each bundle, modules reached through `await import()`
// are initialised on first use. Packages stay external: the native lmdb binding and the wasm HCL parser
// load from node_modules as usual.
import { build } from 'esbuild';
import { copyFile, rm } from 'node:fs/promises';
import path from 'node:path';

/**
 * Modules the CLI loads only for some commands, built as bundles of their own so that `svc version`
 * does not compile them: the embedded server, and the jobspec parser (job commands).
 */
const SEPARATE = new Map([
  [path.resolve('src/server/start.ts'), 'server.cjs'],
  [path.resolve('src/jobspec/index.ts'), 'jobspec.cjs'],
]);

/** In the CLI bundle, an import of one of those modules becomes a require of its own bundle. */
const separateBundles = {
  name: 'separate-bundles',
  setup(b) {
    b.onResolve({ filter: /\.js$/ }, (args) => {
      const target = SEPARATE.get(path.resolve(args.resolveDir, args.path.replace(/\.js$/, '.ts')));
      return target ? { path: `./${target}`, external: true } : undefined;
    });
  },
};

const common = { bundle: true, format: 'cjs', platform: 'node', target: 'node20', packages: 'external', sourcemap: 'linked', logLevel: 'warning' };

await rm('dist', { recursive: true, force: true });
await Promise.all([
  build({ ...common, entryPoints: ['src/main.ts'], outfile: 'dist/main.cjs', plugins: [separateBundles] }),
  ...[...SEPARATE].map(([entry, out]) => build({ ...common, entryPoints: [entry], outfile: `dist/${out}` })),
]);
// The task executor runs as its own process (one per task, so tasks outlive the server); it is plain
// CommonJS with no imports, and the server finds it next to its own bundle.
await copyFile('src/client/executor/executor.cjs', 'dist/executor.cjs');
