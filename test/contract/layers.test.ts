/**
 * The server side never depends on the CLI: the CLI drives the server (src/cli/server-start.ts runs
 * `svc server`), not the other way round, so the server can be embedded, bundled and tested without the
 * command-line layer. Checked on the sources' import statements, type-only imports included.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = fileURLToPath(new URL('../../src/', import.meta.url));
const SERVER_SIDE = ['server', 'scheduler', 'secrets', 'storage', 'shared', 'client', 'cloud', 'cloudsim', 'jobspec'];

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
});
