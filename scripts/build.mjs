// Bundles svc into two CommonJS files:
//   dist/main.cjs    the CLI: every command, the argv parser, output, the API client;
//   dist/server.cjs  the embedded server, loaded only by `svc server`.
// Start-up then compiles one small file and links no ES modules, which keeps `svc version` and
// `svc --help` close to a bare `node -e 0`. Inside each bundle, modules reached through `await import()`
// are initialised on first use. Packages stay external: the native lmdb binding and the wasm HCL parser
// load from node_modules as usual.
import { build } from 'esbuild';
import { rm } from 'node:fs/promises';
import path from 'node:path';

const SERVER_ENTRY = path.resolve('src/server/start.ts');

/** In the CLI bundle, the import of the server's entry becomes a require of the server bundle. */
const serverAsSeparateBundle = {
  name: 'server-as-separate-bundle',
  setup(b) {
    b.onResolve({ filter: /server\/start\.js$/ }, (args) => {
      const target = path.resolve(args.resolveDir, args.path.replace(/\.js$/, '.ts'));
      return target === SERVER_ENTRY ? { path: './server.cjs', external: true } : undefined;
    });
  },
};

const common = { bundle: true, format: 'cjs', platform: 'node', target: 'node20', packages: 'external', sourcemap: 'linked', logLevel: 'warning' };

await rm('dist', { recursive: true, force: true });
await Promise.all([
  build({ ...common, entryPoints: ['src/main.ts'], outfile: 'dist/main.cjs', plugins: [serverAsSeparateBundle] }),
  build({ ...common, entryPoints: [SERVER_ENTRY], outfile: 'dist/server.cjs' }),
]);
