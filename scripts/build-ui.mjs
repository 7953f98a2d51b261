// The web UI: src/ui/main.tsx bundled for the browser into <out>/ui/assets, each file named by its
// content's hash (so the server can let browsers keep them for good), and <out>/ui/index.html naming
// the entry's script and styles. Pages the first screen does not need are split into chunks the app
// loads when they are opened. Nothing in it is fetched from anywhere but the server that serves it.
//
// The terminal's styles (xterm.js's and ours) are a stylesheet of their own, built first: esbuild puts
// every CSS a chunk imports into the entry's stylesheet, which would make the first page carry them.
// Its hashed name reaches the terminal's code as TERMINAL_STYLESHEET, which adds a <link> for it when
// a terminal first opens (the policy refuses <style> elements, so none is written by script).
import { build } from 'esbuild';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';

const ENTRY = 'src/ui/main.tsx';
const TERMINAL_CSS = 'src/ui/terminal/terminal.css';

const escapeAttr = (s) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/** Builds the UI into `${out}/ui`; returns the entry's script and stylesheet, relative to ui/assets. */
export async function buildUi(out) {
  const assets = path.join(out, 'ui', 'assets');
  const terminal = await build({
    entryPoints: { terminal: TERMINAL_CSS },
    bundle: true,
    minify: true,
    outdir: assets,
    entryNames: '[name]-[hash]',
    legalComments: 'none',
    metafile: true,
    logLevel: 'warning',
  });
  const terminalCss = Object.keys(terminal.metafile.outputs).find((file) => file.endsWith('.css'));
  const result = await build({
    entryPoints: [ENTRY],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    splitting: true,
    minify: true,
    jsx: 'automatic',
    jsxImportSource: 'preact',
    tsconfig: 'src/ui/tsconfig.json',
    outdir: assets,
    entryNames: '[name]-[hash]',
    chunkNames: '[name]-[hash]',
    assetNames: '[name]-[hash]',
    legalComments: 'none',
    define: { TERMINAL_STYLESHEET: JSON.stringify(`/ui/assets/${path.basename(terminalCss)}`) },
    metafile: true,
    logLevel: 'warning',
  });
  const [script, meta] = Object.entries(result.metafile.outputs).find(([, o]) => o.entryPoint === ENTRY);
  const name = (file) => path.basename(file);
  const href = (file) => escapeAttr(`/ui/assets/${name(file)}`);
  // The page holds no script or style of its own: the policy the server sends refuses inline ones.
  const html = [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<title>svc</title>',
    // No icon to fetch: the browser would otherwise ask for /favicon.ico, an API path.
    '<link rel="icon" href="data:,">',
    ...(meta.cssBundle ? [`<link rel="stylesheet" href="${href(meta.cssBundle)}">`] : []),
    `<script type="module" src="${href(script)}"></script>`,
    // The chunks the entry imports statically, asked for at once rather than after the entry is parsed.
    ...meta.imports.filter((i) => i.kind === 'import-statement' && !i.external).map((i) => `<link rel="modulepreload" href="${href(i.path)}">`),
    '</head>',
    '<body><div id="app"></div></body>',
    '</html>',
    '',
  ].join('\n');
  await writeFile(path.join(out, 'ui', 'index.html'), html);
  return { script: name(script), style: meta.cssBundle ? name(meta.cssBundle) : undefined, terminalStyle: name(terminalCss), outputs: { ...result.metafile.outputs, ...terminal.metafile.outputs } };
}
