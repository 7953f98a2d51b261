/**
 * `svc version` and `svc --help` start close to a bare `node -e 0` because dist/main.cjs holds only what
 * every start needs: the command declarations, the argv parser, help. What only some commands do lives
 * in bundles of their own (scripts/build.mjs), loaded by those commands' `run`. These checks read the
 * build output (`npm run build`), so that a static import that pulls such a module back into
 * dist/main.cjs fails here rather than only in `npm run bench`.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const dist = (name: string) => new URL(`../../dist/${name}`, import.meta.url);

/**
 * The source modules in a bundle and the size of each one's code, from the `// src/…` line esbuild
 * writes before each module in unminified output.
 */
function modulesOf(bundle: string): Map<string, number> {
  const out = new Map<string, number>();
  const marks = [...bundle.matchAll(/^\/\/ (\S+\.ts)$/gm)];
  marks.forEach((m, i) => out.set(m[1], (marks[i + 1]?.index ?? bundle.length) - m.index!));
  return out;
}

/** Modules only some commands run; none may be compiled by every start. */
const LAZY = [
  // The commands' bodies and what only they use.
  /\.run\.ts$/,
  /^src\/cli\/(resolve|failures|follow)\//,
  /^src\/cli\/commands\/.+\/(status-screen|checks-section|services|drain-monitor|self)\.ts$/,
  /^src\/cli\/complete-(values|secrets-paths)\.ts$/,
  /^src\/cli\/monitor\.ts$/,
  /^src\/cli\/prefix\.ts$/,
  /^src\/cli\/job-file\.ts$/,
  /^src\/cli\/command-failure\.ts$/,
  /^src\/cli\/flags\/parse\.ts$/,
  /^src\/cli\/docs\/completions\.ts$/,
  /^src\/cli\/commands\/auth\/cloud\//,
  // The job and alloc declarations, but for their groups and the top-level `run`/`stop` aliases.
  /^src\/cli\/commands\/job\/(?!group\.ts$|run\.ts$|stop\.ts$)/,
  /^src\/cli\/commands\/alloc\/(?!group\.ts$)/,
  /^src\/cli\/exec\//,
  /^src\/cli\/login-methods\//,
  /^src\/cloud\//,
  /^src\/server\/dev-cloud\.ts$/,
  /^src\/server\/config-file\.ts$/,
  /^test\/support\//,
  /^src\/secrets\/auth\/(cloud\/|token-fields\.ts$)/,
  /^src\/api\/(jobs|allocs|evals|nodes|fs|exec|http\/tls|http\/proxy)\.ts$/,
  /^src\/scheduler\//,
  /^src\/jobspec\//,
];

/**
 * dist/main.cjs was 167 KB before the scheduler commands and 160 KB after their code moved out of it;
 * 175.5 KB before the `auth cloud` commands, whose declarations live in dist/cli-auth-cloud.cjs; 188 KB
 * with exec, logs and fs before the `job` and `alloc` declarations moved to dist/cli-job.cjs and
 * dist/cli-alloc.cjs; 177.5 KB before the NOMAD_/VAULT_ variables, -ca-path, the -address check and the
 * `server members`, `print cloud-endpoint` and `status PREFIX` declarations (4 KB, with `__complete`'s
 * resolvers moved to dist/cli-complete.cjs), and 183 KB with them and the fields Vault's `sys/auth` takes
 * and flag aliases for Vault's names (the token role fields stay out: secrets/token/role-fields.ts);
 * 175.7 KB once the bodies of `svc server` and `svc agent` moved to their commands' bundles; 188 KB with
 * src/cli/stdio.ts (1.9 KB, which spares every start Node's stdout stream) and the API client's plain
 * HTTP exchange (src/api/http/one-shot.ts, 8 KB, which spares every API call node:http): in a bundle of
 * its own, uncached, it cost `svc status` more to load than its 8 KB cost `svc version` here.
 */
const MAIN_BUDGET = 190_000;

describe.skipIf(!existsSync(dist('main.cjs')))('the start-up bundle (dist/main.cjs)', () => {
  const main = readFileSync(dist('main.cjs'), 'utf8');
  const modules = modulesOf(main);
  /** The bundles of the commands' bodies, one per folder of src/cli/commands (scripts/build.mjs). */
  const bodies = readdirSync(dist('')).filter((name) => /^cli-([a-z-]+-)?run\.cjs$/.test(name));

  it('is a build of the current layout', () => {
    expect(modules.size, 'no module markers: is dist/main.cjs minified?').toBeGreaterThan(50);
    for (const bundle of ['cli-run.cjs', 'cli-job-run.cjs', 'cli-alloc-run.cjs', 'cli-auth-cloud.cjs', 'cli-job.cjs', 'cli-alloc.cjs', 'cli-login-cloud.cjs', 'completions.cjs', 'cli-complete.cjs', 'dev-cloud.cjs']) expect(existsSync(dist(bundle)), `dist/${bundle} is missing: run npm run build`).toBe(true);
  });

  it('holds no code that only some commands run', () => {
    // output/nomad.ts may appear as an empty module: commands/job/status.ts re-exports one of its names.
    const found = [...modules].filter(([src, bytes]) => LAZY.some((re) => re.test(src)) || (src === 'src/cli/output/nomad.ts' && bytes > 200));
    expect(found.map(([src]) => src), 'import these only through `await import()` of a bundle entry in scripts/build.mjs').toEqual([]);
  });

  it('holds none of the web UI: its serving code is the server bundle\'s, the browser app is files in dist/ui', () => {
    expect([...modules.keys()].filter((src) => src.startsWith('src/ui/') || src.startsWith('src/server/ui/'))).toEqual([]);
    for (const bundle of ['main.cjs', ...bodies]) expect(readFileSync(dist(bundle), 'utf8')).not.toContain('node_modules/preact/');
    expect(readFileSync(dist('server.cjs'), 'utf8')).toContain('// src/server/ui/ui-assets.ts');
    expect(existsSync(dist('ui/index.html'))).toBe(true);
  });

  it(`stays under ${MAIN_BUDGET / 1000} KB`, () => {
    expect(statSync(dist('main.cjs')).size).toBeLessThan(MAIN_BUDGET);
  });

  it('loads the flag parser (dist/cli-flags.cjs, commander inlined) only when a command is given flags', () => {
    expect(main).not.toContain('node_modules/commander/');
    expect(readFileSync(dist('cli-flags.cjs'), 'utf8')).toContain('// node_modules/commander/lib/command.js');
    const loadsParser = (argv: string[]) => {
      const script = `require(${JSON.stringify(fileURLToPath(dist('main.cjs')))})
        .run(${JSON.stringify(argv)}, undefined, { HOME: '/nonexistent', SVC_ADDR: 'http://127.0.0.1:1' })
        .then(() => process.stderr.write('\\nparser loaded: ' + Object.keys(require.cache).some((f) => f.endsWith('cli-flags.cjs') || f.includes('/node_modules/commander/'))));`;
      return /parser loaded: (\w+)$/.exec(spawnSync(process.execPath, ['-e', script], { encoding: 'utf8' }).stderr)?.[1];
    };
    expect(loadsParser(['version'])).toBe('false');
    expect(loadsParser(['-version'])).toBe('false');
    expect(loadsParser(['status'])).toBe('false');
    expect(loadsParser(['status', '-address=http://127.0.0.1:1'])).toBe('true');
  });

  it('loads the scheduler commands, the auth cloud commands and the completion scripts from their own bundles', () => {
    expect(main).toContain('require("./cli-run.cjs")');
    expect(main).toContain('require("./cli-job-run.cjs")');
    expect(main).toContain('require("./cli-auth-cloud.cjs")');
    expect(main).toContain('require("./cli-job.cjs")');
    expect(main).toContain('require("./cli-alloc.cjs")');
    expect(main).toContain('require("./completions.cjs")');
    expect(main).toContain('require("./cli-login-cloud.cjs")');
    // `svc server`'s body, which loads the simulator only with -dev-cloud.
    expect(readFileSync(dist('cli-run.cjs'), 'utf8')).toContain('require("./dev-cloud.cjs")');
  });

  // cli-alloc.cjs holds declarations only, which throw nothing.
  it.each([...bodies, 'cli-auth-cloud.cjs', 'cli-job.cjs', 'cli-login-cloud.cjs', 'cli-flags.cjs'])('shares the error classes with %s, so exit codes follow the error type', (bundle) => {
    const text = readFileSync(dist(bundle), 'utf8');
    expect(modulesOf(text).has('src/shared/errors.ts'), `dist/${bundle} carries its own copy of src/shared/errors.ts`).toBe(false);
    expect(text).toContain('require("./main.cjs").__shared["src/shared/errors.ts"]');
  });

  it('keeps the auth cloud declarations and their field schemas in dist/cli-auth-cloud.cjs', () => {
    const cloud = modulesOf(readFileSync(dist('cli-auth-cloud.cjs'), 'utf8'));
    for (const src of ['src/cli/commands/auth/cloud/index.ts', 'src/secrets/auth/cloud/fields.ts', 'src/secrets/auth/token-fields.ts']) expect(cloud.has(src), src).toBe(true);
  });

  it("starts from V8's code cache of main.cjs, which this Node accepts, and registers the one instance the lazy bundles require", () => {
    const script = `
      const { loadMain, readCache } = require(${JSON.stringify(fileURLToPath(new URL('../../bin/load-main.cjs', import.meta.url)))});
      const file = ${JSON.stringify(fileURLToPath(dist('main.cjs')))};
      const { exports, script } = loadMain(file, { cachedData: readCache(file) });
      process.stdout.write(JSON.stringify({ rejected: script.cachedDataRejected, same: require(file) === exports }));
    `;
    const run = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8' });
    expect(run.stderr).toBe('');
    expect(JSON.parse(run.stdout)).toEqual({ rejected: false, same: true });
  });
});
