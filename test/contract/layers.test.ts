/**
 * The layers of src/, checked on the sources' import statements, type-only imports included:
 *
 * - The server side never depends on the CLI: the CLI drives the server (src/cli/server-start.ts runs
 *   `svc server`), not the other way round, so the server can be embedded, bundled and tested without
 *   the command-line layer.
 * - The transport (src/server/http) and the field schemas (src/server/framework) import nothing above
 *   them: no secrets, no scheduler, not the services. The two sides' pipelines are handed to the
 *   transport (app.ts wires them), so either side changes without it.
 * - No import cycle crosses areas (src/<dir>, with server/http and server/framework areas of their own):
 *   a cycle ties its modules into one piece that cannot be layered, loaded or replaced part by part.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = fileURLToPath(new URL('../../src/', import.meta.url));
const SERVER_SIDE = ['server', 'scheduler', 'secrets', 'storage', 'shared', 'client', 'cloud', 'cloudsim', 'jobspec'];
/** The bottom of the server side, and what it may import besides itself. */
const TRANSPORT = [path.join('server', 'http'), path.join('server', 'framework')];
const BELOW_TRANSPORT = ['shared'];

function sourcesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return sourcesUnder(p);
    return e.name.endsWith('.ts') ? [p] : [];
  });
}

/** The src/-relative targets of a file's relative imports and re-exports. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/^\s*(?:import|export)\s[^;]*?from\s+'(\.{1,2}\/[^']+)'/gms), ...text.matchAll(/import\('(\.{1,2}\/[^']+)'\)/g)].map((m) =>
    path.relative(SRC, path.resolve(path.dirname(file), m[1])),
  );
}

const under = (file: string, dir: string) => file.startsWith(`${dir}${path.sep}`);

/** A module's area: server/http and server/framework on their own, otherwise its top directory under src/. */
function areaOf(file: string): string {
  return TRANSPORT.find((dir) => under(file, dir)) ?? file.split(path.sep)[0];
}

/** Every module of src/ (src/-relative, `.ts`) with the modules of src/ it imports. */
function importGraph(): Map<string, string[]> {
  const files = sourcesUnder(SRC).map((f) => path.relative(SRC, f));
  const known = new Set(files);
  return new Map(files.map((f) => [f, importsOf(path.join(SRC, f)).map((t) => t.replace(/\.js$/, '.ts')).filter((t) => known.has(t))]));
}

/** The strongly connected components with more than one module (Tarjan): each holds at least one cycle. */
function cycles(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) {
        low.set(v, Math.min(low.get(v)!, index.get(w)!));
      }
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1) found.push(component.sort());
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found;
}

const crossesAreas = (component: string[]) => new Set(component.map(areaOf)).size > 1;

describe('layers', () => {
  it.each(SERVER_SIDE)('src/%s imports nothing from src/cli', (area) => {
    const offending = sourcesUnder(path.join(SRC, area)).flatMap((file) =>
      importsOf(file)
        .filter((target) => target.startsWith(`cli${path.sep}`))
        .map((target) => `${path.relative(SRC, file)} -> ${target}`),
    );
    expect(offending).toEqual([]);
  });

  it('finds imports at all (the check is not vacuous)', () => {
    expect(importsOf(path.join(SRC, 'cli/server-start.ts'))).toContain(path.join('server', 'app.js'));
  });

  it.each(TRANSPORT)('src/%s imports nothing above it (only src/shared and itself)', (area) => {
    const allowed = [...TRANSPORT, ...BELOW_TRANSPORT];
    const offending = sourcesUnder(path.join(SRC, area)).flatMap((file) =>
      importsOf(file)
        .filter((target) => !allowed.some((dir) => under(target, dir)))
        .map((target) => `${path.relative(SRC, file)} -> ${target}`),
    );
    expect(offending).toEqual([]);
  });

  it('the transport is used from above: both sides import it (the check is not vacuous)', () => {
    const graph = importGraph();
    const importers = (dir: string) => [...graph].filter(([, targets]) => targets.some((t) => under(t, dir))).map(([file]) => areaOf(file));
    expect(importers(path.join('server', 'http'))).toEqual(expect.arrayContaining(['secrets', 'scheduler', 'server']));
    expect(importers(path.join('server', 'framework'))).toEqual(expect.arrayContaining(['secrets', 'scheduler']));
  });

  it('src/ has no import cycle that crosses areas', () => {
    expect(cycles(importGraph()).filter(crossesAreas)).toEqual([]);
  });

  it('the cycle check finds a cycle across areas, and one inside an area is left alone', () => {
    const graph = new Map([
      [path.join('server', 'services.ts'), [path.join('secrets', 'token', 'token-store.ts')]],
      [path.join('secrets', 'token', 'token-store.ts'), [path.join('server', 'services.ts'), path.join('secrets', 'token', 'token-entry.ts')]],
      [path.join('secrets', 'token', 'token-entry.ts'), []],
      [path.join('scheduler', 'sched', 'a.ts'), [path.join('scheduler', 'state', 'b.ts')]],
      [path.join('scheduler', 'state', 'b.ts'), [path.join('scheduler', 'sched', 'a.ts')]],
    ]);
    expect(cycles(graph).filter(crossesAreas)).toEqual([[path.join('secrets', 'token', 'token-store.ts'), path.join('server', 'services.ts')]]);
  });
});
