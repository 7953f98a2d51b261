/**
 * The floors of src/, checked on the sources' import statements, type-only imports included. Each area
 * (a top-level folder of src/, or a deeper folder FLOORS names, such as scheduler/wire, which is a floor
 * apart from the rest of its folder) stands on one floor and imports only from its own floor and those
 * below it, and no two areas import each other: a floor can then be read, tested, bundled and replaced
 * without the ones above it. An area no floor names fails the check, so a new folder is placed on purpose.
 *
 * The seams not untangled yet are EXCEPTIONS, each named with the most imports it may hold; the test
 * prints them, fails when one grows, and fails when one is gone and still listed, so the list only shrinks.
 *
 * Two checks are finer than the floors: the transport and the field schemas import nothing but
 * src/shared (either side changes without them), and no cycle of modules crosses areas.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = fileURLToPath(new URL('../../src/', import.meta.url));

/** Bottom up. An area imports from its own floor and those below it. */
const FLOORS: ReadonlyArray<{ floor: string; areas: readonly string[] }> = [
  { floor: 'shared', areas: ['shared', 'version.ts'] },
  { floor: 'storage', areas: ['storage'] },
  { floor: 'framework', areas: ['framework'] },
  // HTTP, TLS and proxies to a server, and no route of svc: the CLI and the node both reach servers through it.
  { floor: 'http client', areas: ['api/http'] },
  // Each knows one outside format or service and no feature of svc.
  { floor: 'libraries', areas: ['cloud', 'cloudsim'] },
  // Below both sides: the scheduler's routes relay these frames as much as the node speaks them.
  { floor: 'wire', areas: ['scheduler/wire'] },
  // The job-file reader maps HCL onto the job's field tables, which the wire holds.
  { floor: 'jobspec', areas: ['jobspec'] },
  // Below both sides and the node: each of them reads the members, the leader or the node holders.
  { floor: 'cluster', areas: ['cluster'] },
  { floor: 'sides', areas: ['secrets', 'scheduler'] },
  { floor: 'node', areas: ['client'] },
  { floor: 'assembly', areas: ['server'] },
  { floor: 'api', areas: ['api'] },
  // The browser app the server serves as files: it may read the API's types, and nothing below imports it.
  { floor: 'browser', areas: ['ui'] },
  { floor: 'cli', areas: ['cli'] },
  { floor: 'entry', areas: ['main.ts', 'sea'] },
];

/** Imports against the floors that are still to be taken out, at most `imports` of them each. */
const EXCEPTIONS: ReadonlyArray<{ from: string; to: string; imports: number; why: string }> = [];

function sourcesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return sourcesUnder(p);
    return /\.tsx?$/.test(e.name) ? [p] : [];
  });
}

/** The src/-relative targets of a file's relative imports, re-exports, side-effect and dynamic imports. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [
    ...text.matchAll(/^\s*(?:import|export)\s[^;]*?from\s+'(\.{1,2}\/[^']+)'/gms),
    ...text.matchAll(/^\s*import\s+'(\.{1,2}\/[^']+)'/gm),
    ...text.matchAll(/import\(\s*'(\.{1,2}\/[^']+)'\s*\)/g),
  ].map((m) => path.relative(SRC, path.resolve(path.dirname(file), m[1])).split(path.sep).join('/'));
}

const under = (file: string, dir: string) => file === dir || file.startsWith(`${dir}/`);

const NAMED_AREAS = FLOORS.flatMap((f) => f.areas)
  .filter((a) => a.includes('/'))
  .sort((a, b) => b.length - a.length);

/** A module's area: the deepest area FLOORS names that holds it, otherwise its top folder (or file) under src/. */
function areaOf(file: string): string {
  return NAMED_AREAS.find((dir) => under(file, dir)) ?? file.split('/')[0].replace(/\.js$/, '.ts');
}

const floorOf = (area: string) => FLOORS.findIndex((f) => f.areas.includes(area));

/** Every module of src/ (src/-relative with `/`, `.ts`) with the modules of src/ it imports. */
function importGraph(): Map<string, string[]> {
  const files = sourcesUnder(SRC).map((f) => path.relative(SRC, f).split(path.sep).join('/'));
  const known = new Set(files);
  // A `.js` specifier names the `.ts` or `.tsx` source beside it.
  const source = (t: string) => [t.replace(/\.js$/, '.ts'), t.replace(/\.js$/, '.tsx')].find((f) => known.has(f));
  return new Map(files.map((f) => [f, importsOf(path.join(SRC, f)).map(source).filter((t): t is string => t !== undefined)]));
}

/** The imports from one area to another, by `from -> to`. */
function areaImports(graph: Map<string, string[]>): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const [file, targets] of graph) {
    for (const target of targets) {
      const [from, to] = [areaOf(file), areaOf(target)];
      if (from === to) continue;
      const key = `${from} -> ${to}`;
      out.set(key, [...(out.get(key) ?? []), `${file} -> ${target}`]);
    }
  }
  return out;
}

const upward = (edge: string) => {
  const [from, to] = edge.split(' -> ');
  return floorOf(to) > floorOf(from);
};

/** The pairs of areas that import each other, each as `a <-> b` with a before b. */
function mutualPairs(edges: Map<string, string[]>): string[] {
  return [...edges.keys()]
    .map((edge) => edge.split(' -> '))
    .filter(([from, to]) => from < to && edges.has(`${to} -> ${from}`))
    .map(([a, b]) => `${a} <-> ${b}`)
    .sort();
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

const exceptionKey = (e: { from: string; to: string }) => `${e.from} -> ${e.to}`;

describe('layers', () => {
  const graph = importGraph();
  const edges = areaImports(graph);

  it('finds imports at all (the check is not vacuous)', () => {
    expect(importsOf(path.join(SRC, 'cli/server-start.ts'))).toContain('server/app.js');
    expect(edges.get('server -> storage')?.length).toBeGreaterThan(0);
  });

  it('every area of src/ stands on a floor', () => {
    expect([...new Set([...graph.keys()].map(areaOf))].filter((area) => floorOf(area) < 0)).toEqual([]);
  });

  it('prints the exceptions still to be taken out', () => {
    const lines = EXCEPTIONS.map((e) => `  ${exceptionKey(e)}: ${edges.get(exceptionKey(e))?.length ?? 0} imports (at most ${e.imports}): ${e.why}`);
    console.log(`layers: ${EXCEPTIONS.length} named exceptions\n${lines.join('\n')}`);
    expect(EXCEPTIONS.every((e) => upward(exceptionKey(e)))).toBe(true);
  });

  it('imports run downward only, but for the named exceptions, none of which grows', () => {
    const allowed = new Map(EXCEPTIONS.map((e) => [exceptionKey(e), e.imports]));
    const offending = [...edges]
      .filter(([edge, imports]) => upward(edge) && imports.length > (allowed.get(edge) ?? 0))
      .flatMap(([edge, imports]) => (allowed.has(edge) ? [`${edge}: ${imports.length} imports, at most ${allowed.get(edge)}`, ...imports] : imports));
    expect(offending).toEqual([]);
  });

  it('no named exception is gone and still listed', () => {
    expect(EXCEPTIONS.map(exceptionKey).filter((edge) => !edges.has(edge))).toEqual([]);
  });

  it('no two areas import each other, but where a named exception is one of the two ways', () => {
    const excepted = new Set(EXCEPTIONS.map(exceptionKey));
    const offending = mutualPairs(edges).filter((pair) => {
      const [a, b] = pair.split(' <-> ');
      return !excepted.has(`${a} -> ${b}`) && !excepted.has(`${b} -> ${a}`);
    });
    expect(offending).toEqual([]);
  });

  const framework = FLOORS.find((f) => f.floor === 'framework')!.areas;
  it.each(framework)('src/%s imports nothing above it (only src/shared and the framework itself)', (area) => {
    const allowed = [...framework, 'shared'];
    const offending = [...graph]
      .filter(([file]) => under(file, area))
      .flatMap(([file, targets]) => targets.filter((t) => !allowed.some((dir) => under(t, dir))).map((t) => `${file} -> ${t}`));
    expect(offending).toEqual([]);
  });

  it('src/ui takes only types from the rest of src/: the browser runs none of the server\'s modules', () => {
    const ui = path.join(SRC, 'ui');
    const offending = sourcesUnder(ui).flatMap((file) => {
      const text = readFileSync(file, 'utf8');
      const specifiers = [...text.matchAll(/^\s*(?:import|export)\s(?!type\s)[^;]*?from\s+'(\.{1,2}\/[^']+)'/gms), ...text.matchAll(/import\(\s*'(\.{1,2}\/[^']+)'\s*\)/g)];
      return specifiers.map((m) => path.resolve(path.dirname(file), m[1])).filter((target) => !target.startsWith(`${ui}${path.sep}`)).map((target) => `${path.relative(SRC, file)} -> ${path.relative(SRC, target)}`);
    });
    expect(sourcesUnder(ui).length).toBeGreaterThan(0);
    expect(offending).toEqual([]);
  });

  it('src/ has no import cycle that crosses areas', () => {
    expect(cycles(graph).filter(crossesAreas)).toEqual([]);
  });

  it('the checks find what they look for: an upward import, a pair, a cycle across areas; a cycle inside an area is left alone', () => {
    const made = new Map([
      ['server/services.ts', ['secrets/token/token-store.ts']],
      ['secrets/token/token-store.ts', ['server/services.ts', 'secrets/token/token-entry.ts']],
      ['secrets/token/token-entry.ts', ['storage/store.ts']],
      ['storage/store.ts', []],
      ['scheduler/sched/a.ts', ['scheduler/state/b.ts']],
      ['scheduler/state/b.ts', ['scheduler/sched/a.ts']],
    ]);
    const madeEdges = areaImports(made);
    expect([...madeEdges.keys()].filter(upward)).toEqual(['secrets -> server']);
    expect(mutualPairs(madeEdges)).toEqual(['secrets <-> server']);
    expect(cycles(made).filter(crossesAreas)).toEqual([['secrets/token/token-store.ts', 'server/services.ts']]);
  });
});
