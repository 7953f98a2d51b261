// Bundles svc into CommonJS files:
//   dist/main.cjs           the CLI: the commands' declarations, the argv parser, help, the API client,
//                           and what the secrets commands do;
//   dist/cli-<group>-run.cjs  what the scheduler commands of src/cli/commands/<group>/ do: the bodies in
//                           its `<verb>.run.ts` files (dist/cli-run.cjs for the top-level commands), found
//                           by their names, each loaded by its declaration's `run` (findBodies below);
//   dist/cli-<folder>.cjs   the declarations of a group that loads them on demand (its `load`, found by
//                           findLazyGroups below): today dist/cli-job.cjs, cli-alloc.cjs, cli-deployment.cjs,
//                           cli-node.cjs, cli-identity.cjs and cli-auth-cloud.cjs (`svc auth cloud`, whose
//                           field schemas are large), loaded by src/cli/registry.ts when argv reaches the
//                           group or when every command is listed;
//   dist/completions.cjs    the completion scripts, loaded only by `svc completion`;
//   dist/cli-template.cjs   the Go template language of `-t`, loaded only when a command is given one;
//   dist/server.cjs         the embedded server, loaded only by `svc server`;
//   dist/agent.cjs          a node without a server, loaded only by `svc agent`;
//   dist/server-config.cjs  the server's configuration file reader, loaded only by `svc server` and `svc agent`;
//   dist/jobspec.cjs        the job file parser, loaded only by job commands;
//   dist/api-tls.cjs, dist/api-proxy.cjs, dist/api-curl-string.cjs  the API client's TLS (https://
//                           addresses only), proxying (a proxy variable set) and -output-curl-string,
//                           loaded by src/api/http/client.ts when needed;
//   dist/cli-policy-fmt.cjs  `svc policy fmt`: the policy parser and the HCL formatter;
//   dist/cli-colour.cjs     the CLI's colours, chalk included, loaded only when some output is coloured;
//   dist/cli-flags.cjs      the flag parser, commander included, loaded only when a command is given flags;
//   dist/event-worker.cjs   the server's worker thread that builds the event stream's events;
//   dist/ui/                the web UI (scripts/build-ui.mjs), files the server serves, never loaded by Node.
// Start-up then compiles one small file and links no ES modules, which keeps `svc version` and
// `svc --help` close to a bare `node -e 0`. Inside each bundle, modules reached through `await import()`
// are initialised on first use, but they are still read and parsed at start-up: a module only some
// commands need belongs in a bundle of its own. Packages stay external: the native lmdb binding and the
// wasm HCL parser load from node_modules as usual. chalk is the exception (INLINED): an ES module, it
// would start Node's ES module loader (some 15 ms) where its bundled copy loads in a few. So is commander:
// one bundled file loads 1-2 ms faster than its package's seven.
//
// The bundles are built into a directory next to dist/ and swapped in once complete: a server or CLI
// running from dist/ while `npm test` rebuilds (or a build that fails) never finds it half-written or gone.
//
// `node scripts/build.mjs --analyze` also prints the largest inputs of each bundle.
import { analyzeMetafile, build } from 'esbuild';
import { execFile } from 'node:child_process';
import { copyFile, readFile, readdir, rename, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { buildUi } from './build-ui.mjs';

/**
 * Modules the CLI loads only for some commands, built as bundles of their own so that `svc version`
 * does not compile them (the commands' own bundles are found below, from src/cli/commands). They must be reached only through `await import()`: a static import would load
 * the bundle at start-up. `cli: true` marks parts of the CLI itself, which take the SHARED modules from
 * dist/main.cjs.
 */
const SEPARATE = new Map([
  [path.resolve('src/cli/server-start.ts'), { out: 'server.cjs' }],
  [path.resolve('src/cli/agent-start.ts'), { out: 'agent.cjs' }],
  [path.resolve('src/jobspec/index.ts'), { out: 'jobspec.cjs' }],
  [path.resolve('src/cli/docs/completions.ts'), { out: 'completions.cjs', cli: true }],
  [path.resolve('src/cli/complete-values.ts'), { out: 'cli-complete.cjs', cli: true }],
  [path.resolve('src/cli/output/go-template.ts'), { out: 'cli-template.cjs', cli: true }],
  [path.resolve('src/cli/login-methods/cloud.ts'), { out: 'cli-login-cloud.cjs', cli: true }],
  [path.resolve('src/server/dev-cloud.ts'), { out: 'dev-cloud.cjs' }],
  [path.resolve('src/server/config-file.ts'), { out: 'server-config.cjs', cli: true }],
  [path.resolve('src/api/http/tls.ts'), { out: 'api-tls.cjs', cli: true }],
  [path.resolve('src/api/http/proxy.ts'), { out: 'api-proxy.cjs', cli: true }],
  [path.resolve('src/api/http/curl-string.ts'), { out: 'api-curl-string.cjs', cli: true }],
  [path.resolve('src/cli/policy-fmt.ts'), { out: 'cli-policy-fmt.cjs', cli: true }],
  [path.resolve('src/cli/output/chalk-palette.ts'), { out: 'cli-colour.cjs', cli: true }],
  [path.resolve('src/cli/flags/parse.ts'), { out: 'cli-flags.cjs', cli: true }],
]);

/**
 * Modules that must be one instance across dist/main.cjs and the CLI's own bundles: src/main.ts turns
 * errors into exit codes with `instanceof`, so an error a scheduler command throws must be made by
 * main.cjs's class, not by a copy; src/main.ts sets the colours of the command it runs, which every
 * bundle's output reads. main.cjs exports them as `__shared`, by path.
 */
const SHARED = [path.resolve('src/shared/errors.ts'), path.resolve('src/cli/output/colour.ts')];

/**
 * The commands' bodies, found by their names: each `<verb>.run.ts` beside its declaration `<verb>.ts` in
 * src/cli/commands/<group>/ goes into that folder's bundle, dist/cli-<group>-run.cjs (dist/cli-run.cjs for
 * the top-level commands), built from an entry that re-exports every body of the folder. The declaration's
 * `run` reaches its body through `await import('./<verb>.run.js')`, which becomes a require of the bundle;
 * anything else importing a body fails the build, since it would carry a second copy of it.
 */
const COMMANDS = path.resolve('src/cli/commands');

async function findBodies(dir = COMMANDS) {
  const bundles = [];
  const entries = await readdir(dir, { withFileTypes: true });
  const bodies = entries.filter((e) => e.isFile() && e.name.endsWith('.run.ts')).map((e) => path.join(dir, e.name)).sort();
  if (bodies.length > 0) bundles.push({ out: ['cli', ...path.relative(COMMANDS, dir).split(path.sep).filter(Boolean), 'run'].join('-') + '.cjs', bodies });
  for (const e of entries) if (e.isDirectory()) bundles.push(...(await findBodies(path.join(dir, e.name))));
  return bundles;
}

const BODIES = await findBodies();
const BUNDLE_OF_BODY = new Map(BODIES.flatMap((b) => b.bodies.map((file) => [file, b])));

/**
 * The command groups whose declarations load on demand: a group that declares its loader,
 * `load: () => import('./index.js')` (src/cli/define.ts), has that module built as dist/cli-<folder>.cjs,
 * the folder's path under src/cli/commands joined by dashes (dist/cli-job.cjs, dist/cli-auth-cloud.cjs).
 */
const LOADER = /\bload: \(\) => import\('(\.[^']*\/index\.js)'\)/g;

async function findLazyGroups(dir = COMMANDS) {
  const found = [];
  for (const e of await readdir(dir, { withFileTypes: true })) {
    const file = path.join(dir, e.name);
    if (e.isDirectory()) found.push(...(await findLazyGroups(file)));
    else if (e.name.endsWith('.ts')) for (const m of (await readFile(file, 'utf8')).matchAll(LOADER)) found.push(path.resolve(dir, m[1].replace(/\.js$/, '.ts')));
  }
  return found;
}

for (const index of await findLazyGroups()) SEPARATE.set(index, { out: `cli-${path.relative(COMMANDS, path.dirname(index)).split(path.sep).join('-')}.cjs`, cli: true });

/** Packages bundled into the CLI's bundles (only the one that imports them) rather than loaded from node_modules. */
const INLINED = ['chalk', 'commander'];
const require = createRequire(import.meta.url);

const rel = (file) => path.relative(process.cwd(), file).split(path.sep).join('/');
const sourceOf = (args) => path.resolve(args.resolveDir, args.path.replace(/\.js$/, '.ts'));

/**
 * An import of a SEPARATE module becomes a require of its bundle; in a CLI bundle (fromMain), an import
 * of a SHARED module becomes main.cjs's instance of it; an INLINED package is bundled in.
 */
const bundleLinks = ({ fromMain, bodies }) => ({
  name: 'bundle-links',
  setup(b) {
    for (const pkg of INLINED) b.onResolve({ filter: new RegExp(`^${pkg}$`) }, () => ({ path: require.resolve(pkg) }));
    b.onResolve({ filter: /\.js$/ }, (args) => {
      const file = sourceOf(args);
      const separate = SEPARATE.get(file);
      if (separate) return { path: `./${separate.out}`, external: true };
      if (args.kind === 'dynamic-import' && file.startsWith(COMMANDS + path.sep) && path.basename(file) === 'index.ts') {
        return { errors: [{ text: `${rel(file)} is loaded on demand but not as a group's loader: declare it in the group as \`load: () => import('./index.js')\`, so that the build makes it a bundle` }] };
      }
      const body = BUNDLE_OF_BODY.get(file);
      if (body) {
        if (body === bodies && args.importer === BODIES_ENTRY) return undefined;
        const declaration = file.replace(/\.run\.ts$/, '.ts');
        if (args.importer !== declaration) return { errors: [{ text: `${rel(file)} is a command's body: only its declaration, ${rel(declaration)}, may import it (${rel(args.importer)} does)` }] };
        if (args.kind !== 'dynamic-import') return { errors: [{ text: `${rel(declaration)} must import its body through \`await import('./${path.basename(file, '.ts')}.js')\`: a static import loads ${body.out} at start-up` }] };
        return { path: `./${body.out}`, external: true };
      }
      if (fromMain && SHARED.includes(file)) return { path: rel(file), namespace: 'from-main' };
      return undefined;
    });
    b.onResolve({ filter: /^\.\/main\.cjs$/ }, () => ({ path: './main.cjs', external: true }));
    b.onLoad({ filter: /.*/, namespace: 'from-main' }, (args) => ({
      contents: `module.exports = require('./main.cjs').__shared[${JSON.stringify(args.path)}];`,
      loader: 'js',
    }));
  },
});

/** The importer esbuild names for a `stdin` entry: the bodies' generated entries. */
const BODIES_ENTRY = '<stdin>';

/** A bundle of bodies: every body of its folder, re-exported by name (each body's export is its own). */
const bodiesEntry = (bundle) => ({
  contents: bundle.bodies.map((file) => `export * from './${rel(file)}';`).join('\n'),
  resolveDir: process.cwd(),
  sourcefile: bundle.out.replace(/\.cjs$/, '-entry.ts'),
  loader: 'ts',
});

/** The CLI's entry: src/main.ts, plus the SHARED modules for the CLI's other bundles. */
const mainEntry = {
  contents: [
    `export * from './src/main.ts';`,
    ...SHARED.map((file, i) => `import * as shared${i} from './${rel(file)}';`),
    `export const __shared = { ${SHARED.map((file, i) => `${JSON.stringify(rel(file))}: shared${i}`).join(', ')} };`,
  ].join('\n'),
  resolveDir: process.cwd(),
  sourcefile: 'cli-entry.ts',
  loader: 'ts',
};

const analyze = process.argv.includes('--analyze');
const common = { bundle: true, format: 'cjs', platform: 'node', target: 'node20', packages: 'external', sourcemap: 'linked', logLevel: 'warning', metafile: analyze };
/**
 * The CLI's bundles turn `await import()` into `require()`: Node's import() starts its ES module loader
 * (some 2 ms, even for a built-in module) and, for a CommonJS file, scans it for its export names (some
 * 10 ms for a bundle), where require() loads the same file at once. The packages the CLI loads this way
 * (yaml) resolve to the same CommonJS file either way.
 */
const cli = { ...common, supported: { 'dynamic-import': false } };

/** Building (`new`) or replaced (`old`) by the build process with that pid. */
const SCRATCH = /^dist\.(new|old)-(\d+)(-\d+)?$/;

const running = (pid) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return err.code === 'EPERM';
  }
};

/** What a build killed half-way left behind; a build still running keeps its own. */
async function removeAbandoned() {
  for (const name of await readdir('.')) {
    const m = SCRATCH.exec(name);
    if (m && !running(Number(m[2]))) await rm(name, { recursive: true, force: true });
  }
}

/**
 * Puts `fresh` in place of dist/. A directory cannot replace a non-empty one in one rename, so the old
 * one moves aside first and dist/ is missing between the two renames only. A build running at the same
 * time may put its dist/ there in between: moved aside too, the last build to finish wins.
 */
async function swapIn(fresh) {
  const aside = [];
  for (;;) {
    const old = `dist.old-${process.pid}-${aside.length}`;
    try {
      await rename('dist', old);
      aside.push(old);
    } catch (err) {
      if (err.code !== 'ENOENT') throw err;
    }
    try {
      await rename(fresh, 'dist');
      break;
    } catch (err) {
      if (err.code !== 'ENOTEMPTY' && err.code !== 'EEXIST') throw err;
    }
  }
  for (const old of aside) await rm(old, { recursive: true, force: true });
}

/**
 * V8's code cache of main.cjs, made by the Node running the build (see bin/load-main.cjs): `svc` starts
 * some 3 ms sooner with it. A Node that cannot use it compiles the bundle as before.
 */
function writeCodeCache(main) {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, ['scripts/code-cache.cjs', main], (err, _stdout, stderr) => (err ? reject(new Error(`code cache: ${stderr || err.message}`)) : resolve()));
  });
}

await removeAbandoned();
const out = `dist.new-${process.pid}`;
try {
  const results = await Promise.all([
    build({ ...cli, stdin: mainEntry, outfile: `${out}/main.cjs`, plugins: [bundleLinks({ fromMain: false })] }),
    // The server and the jobspec parser are self-contained; the CLI's other bundles link like main.cjs.
    ...[...SEPARATE].map(([entry, { out: file, cli: part }]) =>
      build(part ? { ...cli, entryPoints: [entry], outfile: `${out}/${file}`, plugins: [bundleLinks({ fromMain: true })] } : { ...common, entryPoints: [entry], outfile: `${out}/${file}` }),
    ),
    ...BODIES.map((bundle) => build({ ...cli, stdin: bodiesEntry(bundle), outfile: `${out}/${bundle.out}`, plugins: [bundleLinks({ fromMain: true, bodies: bundle })] })),
    // Started by the server with new Worker(), which finds it next to dist/server.cjs.
    build({ ...common, entryPoints: ['src/scheduler/events/event-worker.ts'], outfile: `${out}/event-worker.cjs` }),
    // The web UI the server serves at /ui (scripts/build-ui.mjs): browser code, in dist/ui.
    buildUi(out),
  ]);
  if (analyze) for (const r of results) if (r.metafile) console.log(await analyzeMetafile(r.metafile));
  // The task executor runs as its own process (one per task, so tasks outlive the server); it is plain
  // CommonJS with no imports, and the server finds it next to its own bundle.
  await copyFile('src/client/executor/executor.cjs', `${out}/executor.cjs`);
  await writeCodeCache(`${out}/main.cjs`);
  await swapIn(out);
} catch (err) {
  await rm(out, { recursive: true, force: true });
  throw err;
}
