/**
 * `-help` text in the HashiCorp shape, generated from the declarations: `Usage:`, the description,
 * examples, one section per flag group (`HTTP Options:`, `Output Options:`, `Command Options:`), exit
 * codes. Flags are printed in the single-dash style Vault and Nomad users know. Text is wrapped at 80
 * columns. On the start-up path: no imports beyond types and the import-free flags/env-names.ts.
 */
import type { CommandSpec, FlagSpec } from '../define.js';
import { envSentence, type Family } from '../flags/env-names.js';

export const HELP_WIDTH = 80;

export type FlagSetTable = Record<string, { title: string; flags: FlagSpec[] }>;

/** Word-wraps `text` so that every line, `indent` included, fits in `width` (a longer word stands alone). */
export function wrap(text: string, indent: number, width = HELP_WIDTH, hangingIndent = indent): string {
  const words = text.split(/\s+/).filter((w) => w !== '');
  const lines: string[] = [];
  let line = '';
  let pad = ' '.repeat(indent);
  for (const word of words) {
    if (line !== '' && pad.length + line.length + 1 + word.length > width) {
      lines.push(pad + line);
      pad = ' '.repeat(hangingIndent);
      line = word;
    } else {
      line = line === '' ? word : `${line} ${word}`;
    }
  }
  if (line !== '') lines.push(pad + line);
  return lines.join('\n');
}

/**
 * A description block indented by `indent`: paragraphs (separated by blank lines) of plain prose are
 * re-flowed; a paragraph whose lines are indented or are list items/commands (`- `, `* `, `$ `) keeps
 * its lines, each wrapped on its own (command lines are never wrapped).
 */
export function formatProse(text: string, indent = 2, width = HELP_WIDTH): string {
  const paragraphs = text
    .replace(/\r\n/g, '\n')
    .split(/\n[ \t]*\n/)
    .map((p) => p.replace(/^\n+|\s+$/g, ''))
    .filter((p) => p.trim() !== '');
  return paragraphs
    .map((p) => {
      const lines = p.split('\n');
      const preformatted = lines.some((l) => /^\s/.test(l) || /^([-*$]|\d+\.)\s/.test(l));
      if (!preformatted) return wrap(p, indent, width);
      return lines
        .map((l) => {
          const lead = (/^\s*/.exec(l) as RegExpExecArray)[0].length;
          if (l.trimStart().startsWith('$ ')) return ' '.repeat(indent) + l.trimEnd();
          const bullet = /^\s*(?:[-*]|\d+\.)\s+/.exec(l);
          return wrap(l, indent + lead, width, indent + (bullet ? bullet[0].length : lead));
        })
        .join('\n');
    })
    .join('\n\n');
}

const TYPE_LABEL: Record<FlagSpec['type'], string> = {
  bool: '',
  string: '<string>',
  int: '<int>',
  duration: '<duration>',
  strings: '<string>',
};

function flagHead(flag: FlagSpec): string {
  const label = TYPE_LABEL[flag.type];
  const head = label ? `-${flag.name}=${label}` : `-${flag.name}`;
  return ['  ' + head, ...(flag.aliases ?? []).map((a) => `-${a}`)].join(', ');
}

function defaultText(value: FlagSpec['default']): string | undefined {
  if (value === undefined || value === '') return undefined;
  if (Array.isArray(value)) return value.length > 0 ? value.join(', ') : undefined;
  return String(value);
}

/**
 * One flag's help entry: the `-name=<type>` line, then the description indented 4 and wrapped. Its
 * environment variables are listed in the order a command of `family` reads them.
 */
export function renderFlagHelp(flag: FlagSpec, family?: Family): string {
  let text = flag.description.trim();
  if (flag.choices && flag.choices.length > 0) text += ` Valid values are ${flag.choices.map((c) => `"${c}"`).join(', ')}.`;
  const def = defaultText(flag.default);
  if (def !== undefined) text += ` The default is ${def}.`;
  text += envSentence(flag, family);
  return `${flagHead(flag)}\n${wrap(text, 4)}`;
}

/** The flag sections of a command, in order: its flag sets, then its own flags by `group`. */
export function flagSections(spec: CommandSpec, commonFlagSets: FlagSetTable): Array<{ title: string; flags: FlagSpec[] }> {
  const sections = new Map<string, FlagSpec[]>();
  const add = (title: string, flag: FlagSpec) => {
    if (flag.hidden) return;
    const list = sections.get(title) ?? [];
    const existing = list.findIndex((f) => f.name === flag.name);
    if (existing === -1) list.push(flag);
    else list[existing] = flag;
    sections.set(title, list);
  };
  for (const name of spec.flagSets ?? []) {
    const set = commonFlagSets[name];
    if (set) for (const flag of set.flags) add(set.title, flag);
  }
  for (const flag of spec.flags ?? []) add(flag.group ?? 'Command Options', flag);
  return [...sections]
    .filter(([, flags]) => flags.length > 0)
    .map(([title, flags]) => ({ title, flags }));
}

/**
 * An example's command line, without a leading prompt. One that runs svc anywhere is a shell line
 * (`echo "$TOKEN" | svc login -`) and is printed as written; one that never does is a bare command
 * (`token create`) and gets the `svc` in front.
 */
export function exampleCommand(command: string): string {
  const line = command.trim().replace(/^\$\s*/, '');
  return /(^|[\s|;&(])svc(\s|$)/.test(line) ? line : `svc ${line}`;
}

function exitCodesSection(codes: Record<number, string>): string {
  const entries = Object.entries(codes).sort(([a], [b]) => Number(a) - Number(b));
  const width = Math.max(...entries.map(([code]) => code.length));
  const lines = entries.map(([code, text]) => {
    const head = `  ${code.padEnd(width)}  `;
    return head + wrap(text, head.length, HELP_WIDTH, head.length).trimStart();
  });
  return `Exit codes:\n\n${lines.join('\n')}`;
}

/** `svc <command> -help`. */
export function renderCommandHelp(spec: CommandSpec, commonFlagSets: FlagSetTable): string {
  const parts: string[] = [`Usage: ${spec.usage}`];
  const description = formatProse(spec.description || spec.synopsis);
  if (description) parts.push(description);
  if (spec.examples && spec.examples.length > 0) {
    const examples = spec.examples.map((e) => {
      const cmd = `  $ ${exampleCommand(e.command)}`;
      return e.description ? `${wrap(e.description, 2)}\n\n${cmd}` : cmd;
    });
    parts.push(`Examples:\n\n${examples.join('\n\n')}`);
  }
  for (const section of flagSections(spec, commonFlagSets)) {
    parts.push(`${section.title}:\n\n${section.flags.map((f) => renderFlagHelp(f, spec.family)).join('\n\n')}`);
  }
  if (spec.exitCodes && Object.keys(spec.exitCodes).length > 0) parts.push(exitCodesSection(spec.exitCodes));
  return `${parts.join('\n\n')}\n`;
}

/** The `    name    synopsis` list Vault prints under `Subcommands:` / `Commands:`. */
function commandList(entries: Array<{ name: string; synopsis: string }>, width = Math.max(0, ...entries.map((e) => e.name.length))): string {
  return entries
    .map((e) => {
      const head = `    ${e.name.padEnd(width)}    `;
      return (head + wrap(e.synopsis, head.length, HELP_WIDTH, head.length).trimStart()).trimEnd();
    })
    .join('\n');
}

/** `svc token -help` (or `svc token` alone): Vault's group help. */
export function renderGroupHelp(
  path: string[],
  synopsis: string,
  description: string,
  subcommands: Array<{ name: string; synopsis: string }>,
): string {
  const parts = [`Usage: svc ${path.join(' ')} <subcommand> [options] [args]`];
  const prose = formatProse(description || synopsis);
  if (prose) parts.push(prose);
  if (subcommands.length > 0) parts.push(`Subcommands:\n${commandList(subcommands)}`);
  return `${parts.join('\n\n')}\n`;
}

export interface RootHelpOptions {
  description?: string;
  /** names listed under "Common commands:"; the rest go under "Other commands:" */
  common?: string[];
}

/** `svc -help` (or `svc` alone). */
export function renderRootHelp(commands: Array<{ name: string; synopsis: string }>, opts: RootHelpOptions = {}): string {
  const parts = ['Usage: svc <command> [options] [args]'];
  if (opts.description) parts.push(formatProse(opts.description));
  if (opts.common && opts.common.length > 0) {
    const common = opts.common
      .map((name) => commands.find((c) => c.name === name))
      .filter((c): c is { name: string; synopsis: string } => c !== undefined);
    const other = commands.filter((c) => !opts.common?.includes(c.name));
    const width = Math.max(0, ...commands.map((c) => c.name.length));
    if (common.length > 0) parts.push(`Common commands:\n${commandList(common, width)}`);
    if (other.length > 0) parts.push(`Other commands:\n${commandList(other, width)}`);
  } else if (commands.length > 0) {
    parts.push(`Commands:\n${commandList(commands)}`);
  }
  parts.push('Run "svc <command> -help" for more on a command.');
  return `${parts.join('\n\n')}\n`;
}
