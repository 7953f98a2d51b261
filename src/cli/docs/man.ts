/**
 * Man pages in roff, generated from the command registry: the same declarations that drive `-help`, so
 * the pages say what the binary does. Output is deterministic (no dates) so the committed pages can be
 * compared with a fresh generation.
 */
import type { CommandSpec, FlagSpec, GroupSpec } from '../define.js';
import { exampleCommand, flagSections, type FlagSetTable } from '../output/help.js';
import { VERSION } from '../../version.js';
import { envNames, envSentence, type Family } from '../flags/env-names.js';

const TITLE = 'svc manual';

/** Hidden commands (the completion callback) are left out of the docs. */
export function isHidden(spec: { path: string[]; hidden?: boolean }): boolean {
  return spec.hidden === true;
}

export const manPageName = (path: string[]): string => ['svc', ...path].join('-');

/**
 * Escapes text for roff: backslashes, hyphens as minus signs (so copied flags and commands keep a real
 * `-`), and a leading `.` or `'` that roff would read as a request.
 */
export function roffEscape(text: string): string {
  return text
    .replace(/\\/g, '\\e')
    .replace(/-/g, '\\-')
    .split('\n')
    .map((line) => (/^[.']/.test(line) ? `\\&${line}` : line))
    .join('\n');
}

/** A synopsis used inside running text ends with a full stop. */
const sentence = (s: string) => (/[.!?]$/.test(s.trim()) ? s.trim() : `${s.trim()}.`);

const bold = (s: string) => `\\fB${roffEscape(s)}\\fR`;
const italic = (s: string) => `\\fI${roffEscape(s)}\\fR`;
const quoteArg = (s: string) => `"${s.replace(/"/g, '\\(dq')}"`;

function header(path: string[], synopsis: string): string[] {
  const name = manPageName(path);
  return [
    `.TH ${quoteArg(roffEscape(name.toUpperCase()))} "1" "" ${quoteArg(`svc ${VERSION}`)} ${quoteArg(TITLE)}`,
    // Flag and variable names must not be hyphenated or stretched: left-aligned, no hyphenation.
    '.nh',
    '.ad l',
    '.SH NAME',
    `${roffEscape(name)} \\- ${roffEscape(synopsis.trim())}`,
  ];
}

/** Prose paragraphs; lines that look like commands or lists keep their line breaks. */
function prose(text: string): string[] {
  const out: string[] = [];
  const paragraphs = text
    .replace(/\r\n/g, '\n')
    .split(/\n[ \t]*\n/)
    .map((p) => p.replace(/^\n+|\s+$/g, ''))
    .filter((p) => p.trim() !== '');
  for (const p of paragraphs) {
    const lines = p.split('\n');
    const preformatted = lines.some((l) => /^\s/.test(l) || /^([-*$]|\d+\.)\s/.test(l));
    if (preformatted) out.push('.PP', '.nf', ...lines.map((l) => roffEscape(l.trimEnd())), '.fi');
    else out.push('.PP', roffEscape(lines.map((l) => l.trim()).join(' ')));
  }
  return out;
}

const VALUE_LABEL: Record<FlagSpec['type'], string | undefined> = {
  bool: undefined,
  string: 'string',
  int: 'int',
  duration: 'duration',
  strings: 'string',
};

/** The same sentences `-help` appends (valid values, default, environment variable). */
export function flagText(flag: FlagSpec, family?: Family): string {
  let text = flag.description.trim();
  if (flag.choices && flag.choices.length > 0) text += ` Valid values are ${flag.choices.map((c) => `"${c}"`).join(', ')}.`;
  const d = flag.default;
  const shown = d === undefined || d === '' ? undefined : Array.isArray(d) ? (d.length > 0 ? d.join(', ') : undefined) : String(d);
  if (shown !== undefined) text += ` The default is ${shown}.`;
  return text + envSentence(flag, family);
}

function flagTerm(flag: FlagSpec): string {
  const label = VALUE_LABEL[flag.type];
  const head = `\\fB\\-${roffEscape(flag.name)}\\fR${label ? `=${italic(label)}` : ''}`;
  return [head, ...(flag.aliases ?? []).map((a) => `\\fB\\-${roffEscape(a)}\\fR`)].join(', ');
}

function exitCodes(spec: CommandSpec): Record<number, string> {
  if (spec.exitCodes && Object.keys(spec.exitCodes).length > 0) return spec.exitCodes;
  if (spec.family === 'secrets') {
    return { 0: 'Success.', 1: 'A local error: wrong usage, a bad flag or argument, an unreadable file.', 2: 'The server answered with an error, or could not be reached.' };
  }
  return { 0: 'Success.', 1: 'An error.' };
}

function usageLine(spec: CommandSpec): string {
  const words = `svc ${spec.path.join(' ')}`;
  const usage = spec.usage.trim();
  if (usage === words) return bold(words);
  if (usage.startsWith(`${words} `)) return `${bold(words)} ${roffEscape(usage.slice(words.length + 1))}`;
  return roffEscape(usage);
}

function seeAlso(refs: string[]): string[] {
  const unique = [...new Set(refs)];
  return ['.SH SEE ALSO', unique.map((r, i) => `.BR ${roffEscape(r)} (1)${i < unique.length - 1 ? ',' : ''}`).join('\n')];
}

/** The parent group pages of a command path that exist, nearest last. */
function parentPages(path: string[], groups: GroupSpec[]): string[] {
  const out: string[] = [];
  for (let n = 1; n < path.length; n++) {
    if (groups.some((g) => g.path.length === n && g.path.every((w, i) => w === path[i]))) out.push(manPageName(path.slice(0, n)));
  }
  return out;
}

export function renderManPage(spec: CommandSpec, flagSets: FlagSetTable, groups: GroupSpec[] = []): string {
  const out = header(spec.path, spec.synopsis);
  out.push('.SH SYNOPSIS', usageLine(spec));
  out.push('.SH DESCRIPTION', ...prose(spec.description || spec.synopsis));

  const args = spec.args ?? [];
  if (args.length > 0) {
    out.push('.SH ARGUMENTS');
    for (const a of args) {
      const suffix = a.variadic ? ' ...' : '';
      out.push('.TP', `${italic(a.name.toUpperCase())}${suffix}${a.required ? '' : ' (optional)'}`, roffEscape(a.description.trim()));
    }
  }

  const sections = flagSections(spec, flagSets);
  if (sections.length > 0) {
    out.push('.SH OPTIONS');
    for (const section of sections) {
      out.push(`.SS ${quoteArg(roffEscape(section.title))}`);
      for (const flag of section.flags) out.push('.TP', flagTerm(flag), roffEscape(flagText(flag, spec.family)));
    }
  }

  if (spec.examples && spec.examples.length > 0) {
    out.push('.SH EXAMPLES');
    for (const e of spec.examples) {
      const shown = exampleCommand(e.command);
      if (e.description) out.push('.PP', `${roffEscape(e.description.trim().replace(/:?$/, ':'))}`);
      out.push('.PP', '.RS 4', '.nf', `$ ${roffEscape(shown)}`, '.fi', '.RE');
    }
  }

  out.push('.SH EXIT STATUS');
  for (const [code, text] of Object.entries(exitCodes(spec)).sort(([a], [b]) => Number(a) - Number(b))) {
    out.push('.TP', `\\fB${code}\\fR`, roffEscape(text.trim()));
  }

  const withEnv = sections.flatMap((s) => s.flags).filter((f) => f.env);
  if (withEnv.length > 0) {
    out.push('.SH ENVIRONMENT');
    for (const f of withEnv) {
      const [own, ...upstream] = envNames(f, spec.family);
      out.push('.TP', bold(own), `${roffEscape(f.description.trim())} Overridden by \\fB\\-${roffEscape(f.name)}\\fR.`);
      for (const name of upstream) out.push('.TP', bold(name), roffEscape(`Read for -${f.name} when ${own} and the variables listed before this one are unset.`));
    }
  }

  out.push(...seeAlso(['svc', ...parentPages(spec.path, groups)]));
  return `${out.join('\n')}\n`;
}

/** Direct children of a path among groups and commands, sorted as help lists them. */
export function childrenOf(path: string[], commands: CommandSpec[], groups: GroupSpec[]): Array<{ name: string; synopsis: string; path: string[] }> {
  const seen = new Map<string, { name: string; synopsis: string; path: string[] }>();
  for (const c of [...groups, ...commands]) {
    if (isHidden(c)) continue;
    if (c.path.length === path.length + 1 && path.every((w, i) => c.path[i] === w)) {
      const name = c.path[path.length];
      seen.set(name, { name, synopsis: c.synopsis, path: c.path });
    }
  }
  return [...seen.values()].sort((a, b) => a.name.localeCompare(b.name));
}

export function renderGroupManPage(group: GroupSpec, commands: CommandSpec[], groups: GroupSpec[]): string {
  const out = header(group.path, group.synopsis);
  out.push('.SH SYNOPSIS', `${bold(`svc ${group.path.join(' ')}`)} ${italic('subcommand')} [options] [args]`);
  out.push('.SH DESCRIPTION', ...prose(group.description || group.synopsis));
  const children = childrenOf(group.path, commands, groups);
  if (children.length > 0) {
    out.push('.SH COMMANDS');
    for (const c of children) out.push('.TP', bold(c.name), `${roffEscape(sentence(c.synopsis))} See \\fB${roffEscape(manPageName(c.path))}\\fR(1).`);
  }
  out.push(...seeAlso(['svc', ...parentPages(group.path, groups), ...children.map((c) => manPageName(c.path))]));
  return `${out.join('\n')}\n`;
}

export function renderRootManPage(commands: CommandSpec[], groups: GroupSpec[] = [], flagSets?: FlagSetTable): string {
  const out = header([], 'client and embedded server for a secrets service and a workload scheduler');
  out.push('.SH SYNOPSIS', `${bold('svc')} ${italic('command')} [options] [args]`);
  out.push(
    '.SH DESCRIPTION',
    ...prose(
      'svc is one program that is both the client and the server of two HTTP APIs: a secrets service ' +
        '(tokens, policies, auth methods, the identity store) and a workload scheduler (jobs, evaluations, ' +
        'deployments, allocations). `svc server` runs the embedded server; every other command talks to a ' +
        'running server over HTTP.\n\n' +
        'Flags are written as HashiCorp tools write them: -flag=value or -flag value, --flag also works, ' +
        'and boolean flags are -flag or -flag=false. Every command accepts -help.',
    ),
  );
  out.push('.SH COMMANDS');
  for (const c of commands.filter((c) => !isHidden(c))) {
    out.push('.TP', bold(`svc ${c.path.join(' ')}`), `${roffEscape(sentence(c.synopsis))} See \\fB${roffEscape(manPageName(c.path))}\\fR(1).`);
  }

  const env = new Map<string, string>();
  for (const set of Object.values(flagSets ?? {})) {
    for (const f of set.flags) {
      if (!f.env || env.has(f.env)) continue;
      env.set(f.env, `${f.description.trim()} Overridden by -${f.name}.`);
      for (const name of envNames(f).slice(1)) env.set(name, `Read as ${f.env} when that is unset, as ${name.startsWith('NOMAD_') ? "Nomad's" : "Vault's"} CLI reads it: scheduler commands read a NOMAD_ variable before a VAULT_ one, the other commands VAULT_ first.`);
    }
  }
  for (const c of commands) for (const f of c.flags ?? []) if (f.env && !env.has(f.env)) env.set(f.env, `${f.description.trim()} Overridden by -${f.name}.`);
  env.set('NO_COLOR', 'When set to any non-empty value, output is not coloured.');
  env.set('SVC_CLI_NO_COLOR', 'When "true" or "1", output is not coloured.');
  out.push('.SH ENVIRONMENT');
  for (const [name, text] of env) out.push('.TP', bold(name), roffEscape(text));

  out.push(
    '.SH FILES',
    '.TP',
    bold('~/.svc-token'),
    roffEscape('The token written by `svc login` and `svc server -dev`, used when neither -token nor SVC_TOKEN is given.'),
  );
  out.push(
    '.SH EXIT STATUS',
    ...prose(
      'Each command keeps the convention of the tool it comes from, and its page lists its codes. ' +
        'Secrets commands (as Vault): 0 success, 1 local or usage error, 2 server error. Scheduler ' +
        'commands (as Nomad): 0 success, 1 error, with command-specific extras. An unknown command exits 127.',
    ),
  );
  const top = childrenOf([], commands, groups);
  out.push(...seeAlso(top.map((c) => manPageName(c.path))));
  return `${out.join('\n')}\n`;
}
