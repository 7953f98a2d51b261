/**
 * The command registry is the CLI's table of contents: help, man pages and completions are generated
 * from it, so every declaration must carry what they need, and every command must be reachable.
 */
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { fullRegistry } from '../../src/cli/registry.js';
import { FLAG_SETS } from '../../src/cli/flags/common.js';
import type { FlagSpec } from '../../src/cli/define.js';
import { run } from '../../src/main.js';

const { commands, groups } = await fullRegistry();
const FAMILIES = ['secrets', 'scheduler', 'local'];
const words = (path: string[]) => path.join(' ');

function allFlags(spec: (typeof commands)[number]): FlagSpec[] {
  return [...(spec.flagSets ?? []).flatMap((s) => FLAG_SETS[s].flags), ...(spec.flags ?? [])];
}

async function runInProcess(argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (d: Buffer) => (out += d.toString()));
  stderr.on('data', (d: Buffer) => (err += d.toString()));
  stdin.end();
  const code = await run(argv, { stdin, stdout, stderr }, { HOME: '/nonexistent', NO_COLOR: '1' });
  return { code, stdout: out, stderr: err };
}

describe('every command declaration', () => {
  it('has unique command words, not shared with a group', () => {
    const seen = new Set<string>();
    for (const c of commands) {
      expect(seen.has(words(c.path)), `"svc ${words(c.path)}" is declared twice`).toBe(false);
      seen.add(words(c.path));
    }
    for (const g of groups) expect(seen.has(words(g.path)), `"svc ${words(g.path)}" is both a group and a command`).toBe(false);
  });

  it.each(commands.map((c) => [words(c.path), c] as const))('svc %s has a synopsis, usage, description and family', (name, spec) => {
    expect(spec.synopsis.trim(), 'synopsis').not.toBe('');
    expect(spec.description.trim(), 'description').not.toBe('');
    expect(spec.usage === `svc ${name}` || spec.usage.startsWith(`svc ${name} `), `usage "${spec.usage}" must start with "svc ${name}"`).toBe(true);
    expect(FAMILIES).toContain(spec.family);
    for (const a of spec.args ?? []) expect(a.description.trim(), `argument ${a.name}`).not.toBe('');
  });

  it.each(commands.map((c) => [words(c.path), c] as const))('svc %s: every flag is described, and no name or alias is used twice', (_name, spec) => {
    const names = new Map<string, string>();
    for (const f of allFlags(spec)) {
      expect(f.description.trim(), `-${f.name} has no description`).not.toBe('');
      expect(f.name, `-${f.name} is not a lower-case flag name`).toMatch(/^[a-z0-9][a-z0-9-]*$/);
      if (f.choices && f.default !== undefined) expect(f.choices, `-${f.name}'s default is not one of its choices`).toContain(f.default);
      for (const n of [f.name, ...(f.aliases ?? [])]) {
        // -help and -h are taken by the help every command answers.
        expect(['help', 'h'], `-${n} collides with -help`).not.toContain(n);
        expect(names.get(n), `-${n} is declared by both -${names.get(n)} and -${f.name}`).toBeUndefined();
        names.set(n, f.name);
      }
    }
  });
});

describe('groups', () => {
  it('every command below the top level has a group for each prefix of its words, or a command whose help names it', () => {
    const groupWords = new Set(groups.map((g) => words(g.path)));
    for (const c of commands) {
      for (let n = 1; n < c.path.length; n++) {
        const prefix = words(c.path.slice(0, n));
        // `svc server` starts the server and `svc server members` lists the servers, as Nomad's words go.
        const parent = commands.find((p) => words(p.path) === prefix);
        if (parent) expect(parent.description, `"svc ${prefix}" -help does not name "svc ${words(c.path)}"`).toContain(`\`svc ${words(c.path)}\``);
        else expect(groupWords.has(prefix), `"svc ${prefix}" (prefix of "svc ${words(c.path)}") is not a group`).toBe(true);
      }
    }
  });

  it.each(groups.map((g) => [words(g.path), g] as const))('svc %s -help lists every subcommand', async (name, group) => {
    const children = [...new Set([...groups, ...commands].filter((c) => c.path.length === group.path.length + 1 && words(c.path).startsWith(`${name} `)).map((c) => c.path[group.path.length]))];
    expect(children.length, `group "svc ${name}" has no subcommands`).toBeGreaterThan(0);
    expect(group.synopsis.trim()).not.toBe('');
    expect(group.description.trim()).not.toBe('');
    const res = await runInProcess([...group.path, '-help']);
    expect(res.code).toBe(0);
    for (const child of children.filter((c) => !c.startsWith('__'))) expect(res.stdout).toMatch(new RegExp(`^\\s+${child}\\s`, 'm'));
  });

  it('an unknown subcommand of a group is an error on stderr with the group help, exit 127; the bare group prints its help', async () => {
    for (const group of groups) {
      const res = await runInProcess([...group.path, 'no-such-command']);
      expect(res.code, words(group.path)).toBe(127);
      expect(res.stdout).toBe('');
      expect(res.stderr.startsWith(`Unknown command: svc ${words(group.path)} no-such-command\n\nUsage: svc ${words(group.path)} <subcommand>`)).toBe(true);
    }
    const typo = await runInProcess(['job', 'stauts']);
    expect(typo.code).toBe(127);
    expect(typo.stderr.startsWith('Unknown command: svc job stauts\nDid you mean "svc job status"?\n\nUsage: svc job <subcommand>')).toBe(true);
    const top = await runInProcess(['jbo', 'status']);
    expect([top.code, top.stderr]).toEqual([127, 'Unknown command: svc jbo status\nDid you mean "svc job"?\nRun "svc -help" for the list of commands.\n']);
    const bare = await runInProcess(['auth']);
    expect([bare.code, bare.stderr]).toEqual([1, '']);
    expect(bare.stdout).toMatch(/^Usage: svc auth <subcommand>/);
  });

  it('svc -help lists every top-level command and group', async () => {
    const res = await runInProcess(['-help']);
    expect(res.code).toBe(0);
    const top = new Set([...groups, ...commands].map((c) => c.path[0]).filter((w) => !w.startsWith('__')));
    for (const w of top) expect(res.stdout).toMatch(new RegExp(`^\\s+${w}\\s`, 'm'));
  });
});

describe('help', () => {
  it.each(commands.map((c) => [words(c.path), c] as const))('svc %s -help exits 0 and prints the usage', async (_name, spec) => {
    const res = await runInProcess([...spec.path, '-help']);
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    expect(res.stdout.startsWith(`Usage: ${spec.usage}\n`)).toBe(true);
    for (const f of allFlags(spec).filter((f) => !f.hidden)) expect(res.stdout, `-${f.name} is missing from the help`).toContain(`-${f.name}`);
  });
});
