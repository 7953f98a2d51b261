/**
 * A scheduler command lives in one folder: its declaration `<verb>.ts` (help, man pages, completions)
 * and its body `<verb>.run.ts` beside it, which the declaration's `run` loads with `await import()`.
 * scripts/build.mjs bundles each folder's bodies by their names, so these checks keep the layout it
 * relies on: a body imported by anything else would carry a second copy of it into that importer's
 * bundle, and a body that exported more than itself would invite such imports.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const COMMANDS = path.join(root, 'src/cli/commands');
const rel = (file: string) => path.relative(root, file).split(path.sep).join('/');

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const file = path.join(dir, e.name);
    return e.isDirectory() ? walk(file) : /\.(ts|mts)$/.test(e.name) ? [file] : [];
  });
}

const sources = [...walk(path.join(root, 'src')), ...walk(path.join(root, 'test'))];
const bodies = sources.filter((f) => f.startsWith(COMMANDS + path.sep) && f.endsWith('.run.ts'));

/** Every relative import of every source file, static or dynamic, with the file it names. */
const imports = sources.flatMap((file) =>
  [...readFileSync(file, 'utf8').matchAll(/(?:\bfrom\s+|\bimport\s*\(\s*|^import\s+)'(\.{1,2}\/[^']+)'/gm)].map((m) => ({
    importer: file,
    target: path.resolve(path.dirname(file), m[1].replace(/\.js$/, '.ts')),
    dynamic: m[0].includes('('),
  })),
);

const exportsOf = (text: string) => [...text.matchAll(/^export\s+(?:async\s+)?(?:function|const|let|class|interface|type|enum)\s+(\w+)|^export\s*(?:type\s*)?\{([^}]*)\}/gm)].flatMap((m) => (m[1] ? [m[1]] : m[2].split(',').map((n) => n.trim().split(/\s+as\s+/).pop()!).filter(Boolean)));

describe('command bodies (src/cli/commands/**/<verb>.run.ts)', () => {
  it('exist, beside their declarations', () => {
    expect(bodies.length).toBeGreaterThan(40);
    const orphans = bodies.filter((b) => !sources.includes(b.replace(/\.run\.ts$/, '.ts'))).map(rel);
    expect(orphans, 'a body without its declaration <verb>.ts beside it').toEqual([]);
  });

  it('are imported only by their own declaration, through await import()', () => {
    const wrong = imports
      .filter((i) => bodies.includes(i.target))
      .filter((i) => i.importer !== i.target.replace(/\.run\.ts$/, '.ts') || !i.dynamic)
      .map((i) => `${rel(i.importer)} imports ${rel(i.target)}`);
    expect(wrong, 'move what they need out of the body, beside it or to the folder of what it holds').toEqual([]);
  });

  it('export their body only, under a name no other body of their folder uses', () => {
    const byFolder = new Map<string, string[]>();
    const wrong: string[] = [];
    for (const body of bodies) {
      const names = exportsOf(readFileSync(body, 'utf8'));
      if (names.length !== 1) wrong.push(`${rel(body)} exports ${names.join(', ') || 'nothing'}`);
      const folder = byFolder.get(path.dirname(body)) ?? [];
      for (const name of names) if (folder.includes(name)) wrong.push(`${rel(body)}: ${name} is exported by another body of its folder`);
      byFolder.set(path.dirname(body), [...folder, ...names]);
    }
    expect(wrong).toEqual([]);
  });

  it('are where every scheduler command runs: each such declaration loads its own body', () => {
    const declarations = sources.filter((f) => f.startsWith(COMMANDS + path.sep) && !f.endsWith('.run.ts') && /\bfamily: 'scheduler'/.test(readFileSync(f, 'utf8')));
    expect(declarations.length).toBeGreaterThan(40);
    const wrong = declarations.filter((decl) => {
      const own = `./${path.basename(decl, '.ts')}.run.js`;
      const runs = [...readFileSync(decl, 'utf8').matchAll(/\brun(?:\s*:\s*async\s*\(ctx\)\s*=>|\s*\()\s*(.*)/g)].map((m) => m[1]);
      return runs.length === 0 || runs.some((r) => !r.startsWith(`(await import('${own}'))`));
    });
    expect(wrong.map(rel), "declare `run: async (ctx) => (await import('./<verb>.run.js')).<body>(ctx)` and move the body there").toEqual([]);
  });
});
