// Builds dist/svc-linux-x64, svc as one executable file: Node's single executable application (the Node
// that runs this script, with a preparation blob injected by postject, as
// https://nodejs.org/docs/latest-v20.x/api/single-executable-applications.html describes). `npm run package`
// builds dist/ first; this script packs the dist/ it finds.
//
// The executable's main script is src/sea/entry.ts. Everything else rides along as assets and is
// unpacked on the first run (src/sea/unpack.ts): dist/'s bundles as they are (main.cjs and the bundles it
// loads lazily, the executor, the worker), and the runtime packages from node_modules without what only
// builds and editors use (typings, C sources, source maps, docs). A package may read any other file next
// to itself (lmdb its compression dictionary), so everything else goes. Of native
// bindings it carries only those this Node loads, found by loading every runtime dependency in a child
// process and reading its memory map: lmdb's binding for this ABI and libc, msgpackr-extract's, node-pty's.
//
// Why dist/ as it is, rather than one bundle of the CLI and the server as the main script: `svc version`
// took 54 ms of CPU from bin/svc and 54 ms from this executable; one bundle took 74 ms, or 53 ms with
// V8's code cache in the blob (measured on 2 cores, 40 runs each). As fast, then, but the bundle would
// still need files on disk for the native bindings, the worker and the executor, and
// shims for the packages that find those next to themselves. Carried as they are, every package finds
// its files where it expects them, and the executable runs the very files an install runs.
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmod, copyFile, mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const require = createRequire(import.meta.url);
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const OUTPUT = path.join(root, 'dist/svc-linux-x64');
/** Node's documented sentinel: the executable checks it to know a blob was injected. */
const SEA_FUSE = 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2';
/** The asset listing the others, by the name src/sea/unpack.ts reads (FILES_ASSET). */
const FILES_ASSET = 'files.json';
/** What no program loads from a package; native bindings are added back by loadedBindings(). */
const DROP = /\.(d\.[cm]?ts|ts|map|md|markdown|c|h|cc|cpp|hpp|gyp|gypi|node|png|iml|sln|vcxproj)$/i;

if (process.platform !== 'linux' || process.arch !== 'x64') {
  throw new Error(`dist/svc-linux-x64 is built on linux-x64 (this is ${process.platform}-${process.arch}): the native bindings it carries are this machine's`);
}

/** Files under dir (relative to it), skipping `skip` directory names and, with `dotted: false`, dot files. */
async function walk(dir, { skip = new Set(), dotted = true } = {}) {
  const out = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    if (!dotted && entry.name.startsWith('.')) continue;
    if (entry.isDirectory() && !skip.has(entry.name)) for (const f of await walk(path.join(dir, entry.name), { skip, dotted })) out.push(path.join(entry.name, f));
    if (entry.isFile()) out.push(entry.name);
  }
  return out;
}

/** The native bindings this Node loads: every runtime dependency required in a child, its memory map read. */
function loadedBindings(dependencies) {
  const probe = `for (const d of ${JSON.stringify(dependencies)}) require(d);
    const maps = require('node:fs').readFileSync('/proc/self/maps', 'utf8').split('\\n').map((l) => l.split(/\\s+/)[5]);
    process.stdout.write(JSON.stringify([...new Set(maps.filter((p) => p && p.endsWith('.node')))]));`;
  return JSON.parse(execFileSync(process.execPath, ['-e', probe], { cwd: root, encoding: 'utf8' })).map((p) => path.relative(root, p));
}

/** [path under the unpack directory, absolute source, mode] of every carried file. */
async function carriedFiles(dependencies) {
  const files = [];
  const add = async (rel) => files.push([rel, path.join(root, rel), (await stat(path.join(root, rel))).mode & 0o755]);
  for (const f of await walk(path.join(root, 'dist'))) {
    if (!f.endsWith('.map') && path.join('dist', f) !== path.relative(root, OUTPUT)) await add(path.join('dist', f));
  }
  // Every installed package a runtime dependency needs, nested copies included, each listed once.
  const packages = execFileSync('npm', ['ls', '--omit=dev', '--all', '--parseable'], { cwd: root, encoding: 'utf8' })
    .split('\n')
    .map((p) => path.relative(root, p))
    .filter((p) => p.startsWith('node_modules' + path.sep));
  for (const pkg of packages) {
    // Editor and tool state (.idea, .github, rc files) is dot files; a package's nested node_modules is listed on its own.
    for (const f of await walk(path.join(root, pkg), { skip: new Set(['node_modules']), dotted: false })) if (!DROP.test(f)) await add(path.join(pkg, f));
  }
  for (const binding of loadedBindings(dependencies)) await add(binding);
  return files.sort((a, b) => (a[0] < b[0] ? -1 : 1));
}

const manifest = JSON.parse(await readFile(path.join(root, 'package.json'), 'utf8'));
const files = await carriedFiles(Object.keys(manifest.dependencies));
const hash = createHash('sha256');
for (const [rel, source, mode] of files) hash.update(`${rel}\0${mode}\0`).update(await readFile(source)).update('\0');
const seaBuild = { version: manifest.version, hash: hash.digest('hex').slice(0, 16) };

// Next to dist/ on the same file system, so the finished executable is renamed into place: a `svc`
// copied from dist/ meanwhile is the old one or the new one, never half of one.
const work = path.join(root, 'node_modules/.cache/svc-sea', String(process.pid));
await rm(work, { recursive: true, force: true });
await mkdir(work, { recursive: true });
try {
  await build({
    entryPoints: [path.join(root, 'src/sea/entry.ts')],
    outfile: path.join(work, 'entry.cjs'),
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    define: { SVC_SEA_BUILD: JSON.stringify(seaBuild) },
    logLevel: 'warning',
  });
  await writeFile(path.join(work, FILES_ASSET), JSON.stringify(files.map(([rel, , mode]) => [rel, mode])));
  const config = {
    main: path.join(work, 'entry.cjs'),
    output: path.join(work, 'sea.blob'),
    disableExperimentalSEAWarning: true,
    assets: Object.fromEntries([[FILES_ASSET, path.join(work, FILES_ASSET)], ...files.map(([rel, source]) => [rel, source])]),
  };
  await writeFile(path.join(work, 'sea-config.json'), JSON.stringify(config));
  const prepared = spawnSync(process.execPath, ['--experimental-sea-config', path.join(work, 'sea-config.json')], { encoding: 'utf8' });
  if (prepared.status !== 0) throw new Error(`node --experimental-sea-config failed: ${prepared.stderr.trim()}`);

  const exe = path.join(work, 'svc-linux-x64');
  await copyFile(process.execPath, exe);
  await chmod(exe, 0o755);
  // postject's CLI in a child: its ELF library prints warnings about sections it does not need to parse,
  // shown here only when the injection fails.
  const injected = spawnSync(process.execPath, [require.resolve('postject/dist/cli.js'), exe, 'NODE_SEA_BLOB', config.output, '--sentinel-fuse', SEA_FUSE], { encoding: 'utf8' });
  if (injected.status !== 0) throw new Error(`postject failed: ${`${injected.stdout}${injected.stderr}`.trim()}`);
  await rename(exe, OUTPUT);
  const size = (bytes) => `${(bytes / 2 ** 20).toFixed(1)} MB`;
  let carried = 0;
  for (const [, source] of files) carried += (await stat(source)).size;
  console.log(`${path.relative(root, OUTPUT)}: ${size((await stat(OUTPUT)).size)}, carrying ${files.length} files (${size(carried)}) unpacked as ${seaBuild.version}-${seaBuild.hash}`);
} finally {
  await rm(work, { recursive: true, force: true });
}
