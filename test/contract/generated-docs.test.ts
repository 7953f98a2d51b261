/**
 * The man pages and completion scripts are generated from the registry and committed; these tests keep
 * the committed files equal to what the generators produce now, and check the pages are sound roff.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateAll, GENERATED_DIRS } from '../../src/cli/docs/generate.js';
import { fullRegistry } from '../../src/cli/registry.js';
import { renderManPage, roffEscape } from '../../src/cli/docs/man.js';
import { FLAG_SETS } from '../../src/cli/flags/common.js';
import { REPO } from '../support/server.js';

const generated = await generateAll();
const { commands, groups } = await fullRegistry();
const visible = commands.filter((c) => !c.path[0].startsWith('__'));

describe('generated docs', () => {
  it('the committed man pages and completions are current (run npm run gen if not)', async () => {
    const stale: string[] = [];
    for (const [rel, content] of Object.entries(generated)) {
      const current = await readFile(path.join(REPO, rel), 'utf8').catch(() => undefined);
      if (current === undefined) stale.push(`${rel} is missing`);
      else if (current !== content) stale.push(`${rel} differs`);
    }
    for (const dir of GENERATED_DIRS) {
      for (const name of await readdir(path.join(REPO, dir)).catch(() => [] as string[])) {
        if (!(`${dir}/${name}` in generated)) stale.push(`${dir}/${name} is not generated any more`);
      }
    }
    expect(stale, `Generated docs are out of date; run npm run gen:\n  ${stale.join('\n  ')}`).toEqual([]);
  });

  it('every command and group has a man page, and the hidden completion callback has none', () => {
    for (const c of [...visible, ...groups]) expect(Object.keys(generated), `svc ${c.path.join(' ')}`).toContain(`man/man1/svc-${c.path.join('-')}.1`);
    expect(generated['man/man1/svc.1']).toBeDefined();
    expect(Object.keys(generated).some((f) => f.includes('__'))).toBe(false);
  });

  it('svc.1 lists every command', () => {
    for (const c of visible) expect(generated['man/man1/svc.1']).toContain(`\\fBsvc ${roffEscape(c.path.join(' '))}\\fR`);
  });

  it('there is a completion script per shell', () => {
    for (const shell of ['bash', 'zsh', 'fish']) expect(generated[`completions/svc.${shell}`]).toMatch(/svc/);
  });
});

const MACROS = new Set(['TH', 'SH', 'SS', 'PP', 'TP', 'RS', 'RE', 'nf', 'fi', 'BR', 'nh', 'ad']);
const pages = Object.entries(generated).filter(([f]) => f.startsWith('man/'));

describe('man pages are sound roff', () => {
  it.each(pages)('%s', (_file, text) => {
    const lines = text.split('\n');
    expect(lines[0]).toMatch(/^\.TH "SVC[^"]*" "1" /);
    for (const line of lines) {
      // A line starting with . or ' is a request; text that does must have been escaped.
      if (line.startsWith('.')) expect(MACROS, `unknown request: ${line}`).toContain(line.slice(1).split(' ')[0]);
      expect(line.startsWith("'"), line).toBe(false);
      // An unescaped - renders as a hyphen, which breaks flags and commands copied from the page.
      expect(line, 'unescaped "-"').not.toMatch(/(^|[^\\])-/);
    }
    for (const section of ['NAME', 'SYNOPSIS', 'DESCRIPTION', 'SEE ALSO']) expect(text).toContain(`.SH ${section}\n`);
  });
});

describe('renderManPage', () => {
  const spec = {
    path: ['demo', 'run'],
    synopsis: 'Run a demo',
    usage: 'svc demo run [options] NAME',
    description: 'Runs the demo.\n\n.dot lines must be escaped\n\nA second paragraph with a back\\slash.',
    examples: [{ command: 'svc demo run -fast x', description: 'Run it fast' }],
    family: 'secrets' as const,
    flagSets: ['http' as const],
    flags: [
      { name: 'fast', type: 'bool' as const, description: 'Go fast.', aliases: ['f'] },
      { name: 'mode', type: 'string' as const, description: 'The mode.', choices: ['a', 'b'], default: 'a', env: 'SVC_DEMO_MODE' },
      { name: 'secret-flag', type: 'string' as const, description: 'Not shown.', hidden: true },
    ],
    args: [{ name: 'name', description: 'What to run.', required: true }],
    run: async () => 0,
  };
  const page = renderManPage(spec, FLAG_SETS, [{ path: ['demo'], synopsis: 'Demos', description: 'Demos.' }]);

  it('has the synopsis, the options by section, the examples, the exit codes and the environment', () => {
    expect(page).toContain('.SH SYNOPSIS\n\\fBsvc demo run\\fR [options] NAME\n');
    expect(page).toContain('.SS "HTTP Options"\n.TP\n\\fB\\-address\\fR=\\fIstring\\fR\n');
    expect(page).toContain('.SS "Command Options"\n.TP\n\\fB\\-fast\\fR, \\fB\\-f\\fR\nGo fast.\n');
    expect(page).toContain('\\fB\\-mode\\fR=\\fIstring\\fR\nThe mode. Valid values are "a", "b". The default is a. This can also be specified via the SVC_DEMO_MODE environment variable.\n');
    expect(page).not.toContain('secret');
    expect(page).toContain('.nf\n$ svc demo run \\-fast x\n.fi');
    expect(page).toContain('.SH EXIT STATUS\n.TP\n\\fB0\\fR\nSuccess.\n.TP\n\\fB1\\fR\n');
    expect(page).toContain('.TP\n\\fBSVC_DEMO_MODE\\fR\nThe mode. Overridden by \\fB\\-mode\\fR.');
    expect(page).toContain('.SH SEE ALSO\n.BR svc (1),\n.BR svc\\-demo (1)\n');
  });

  it('escapes text that roff would take for requests or escapes', () => {
    expect(page).toContain('\n\\&.dot lines must be escaped\n');
    expect(page).toContain('back\\eslash');
  });
});
