// Writes the generated docs (man/man1/*.1, completions/svc.*, and package.json's "man" list) from the
// command registry, and removes generated files whose command is gone. The registry is TypeScript and is
// not exported by dist/main.cjs, so the generator is bundled here on its own. `--check` writes nothing and
// exits 1 when a file is stale.
import { build } from 'esbuild';
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const check = process.argv.includes('--check');

const out = path.join(root, 'node_modules/.cache/svc-gen/generate.mjs');
const result = await build({
  entryPoints: [path.join(root, 'src/cli/docs/generate.ts')],
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  write: false,
  logLevel: 'warning',
});
await mkdir(path.dirname(out), { recursive: true });
await writeFile(out, result.outputFiles[0].contents);
const { generateAll, GENERATED_DIRS } = await import(`${pathToFileURL(out).href}?t=${Date.now()}`);

const files = await generateAll();
const stale = [];
for (const [rel, content] of Object.entries(files)) {
  const file = path.join(root, rel);
  const current = await readFile(file, 'utf8').catch(() => undefined);
  if (current === content) continue;
  stale.push(rel);
  if (!check) {
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, content);
  }
}
for (const dir of GENERATED_DIRS) {
  const names = await readdir(path.join(root, dir)).catch(() => []);
  for (const name of names) {
    const rel = `${dir}/${name}`;
    if (rel in files) continue;
    stale.push(`${rel} (${check ? 'no longer generated' : 'removed'})`);
    if (!check) await rm(path.join(root, rel));
  }
}

// npm links only the man pages package.json names (a `directories.man` folder is packed but not linked),
// so the list follows the generated pages.
const manifestFile = path.join(root, 'package.json');
const manifest = JSON.parse(await readFile(manifestFile, 'utf8'));
const manPages = Object.keys(files).filter((rel) => rel.startsWith('man/')).sort();
if (JSON.stringify(manifest.man) !== JSON.stringify(manPages)) {
  stale.push('package.json ("man")');
  if (!check) await writeFile(manifestFile, `${JSON.stringify({ ...manifest, man: manPages }, null, 2)}\n`);
}

if (check) {
  if (stale.length > 0) {
    console.error(`Generated docs are out of date; run npm run gen:\n  ${stale.join('\n  ')}`);
    process.exit(1);
  }
} else {
  console.log(stale.length === 0 ? `${Object.keys(files).length} generated files are up to date` : `updated:\n  ${stale.join('\n  ')}`);
}
