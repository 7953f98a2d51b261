/**
 * The output of every scheduler command that prints data, chosen in one place. A command hands over the
 * API object it shows and a renderer of its Nomad-style text; the flags of the `scheduler-output` set
 * (src/cli/flags/common.ts) pick what is printed:
 *
 * - table (the default): the command's own text;
 * - `-format=json` or `-json`: the object as JSON, keys sorted, 2-space indent, never coloured;
 * - `-format=yaml`: the same as YAML (the `yaml` package, loaded only then);
 * - `-field NAME`: one top-level field's raw value, as the secrets commands print it; over a list, that
 *   field of every element, one per line;
 * - `-t TEMPLATE`: a Go template over the object (dist/cli-template.cjs, loaded only then).
 *
 * SVC_FORMAT sets the default format; `-json`, `-t` and `-field` given on the command line win over it.
 */
import type { CommandContext } from '../define.js';
import { UsageError } from '../../shared/errors.js';
import { CommandFailure } from '../command-failure.js';
import { rawValue, renderData, sortedKeys } from './format.js';
import { schedulerOutputMode } from './scheduler-output-mode.js';

/** Whether the command prints its own text: other modes print the data only, so monitors and prompts are refused. */
export function wantsTable(ctx: Pick<CommandContext, 'flags' | 'env'>): boolean {
  return schedulerOutputMode(ctx.flags, ctx.env).kind === 'table';
}

/** The value with every object's keys in byte order, so the output does not depend on the server's key order. */
function sortedKeysDeep(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedKeysDeep);
  if (value === null || typeof value !== 'object') return value;
  const obj = value as Record<string, unknown>;
  return Object.fromEntries(sortedKeys(obj).map((k) => [k, sortedKeysDeep(obj[k])]));
}

function fieldOf(value: unknown, name: string): string {
  const obj = value !== null && typeof value === 'object' ? (value as Record<string, unknown>) : undefined;
  const found = obj?.[name];
  if (found === undefined) throw new UsageError(`Field "${name}" not present in the output; -format=json shows the fields there are`);
  return rawValue(found);
}

async function templated(text: string, data: unknown): Promise<string> {
  const { renderGoTemplate } = await import('./go-template.js');
  try {
    return renderGoTemplate(text, data);
  } catch (err) {
    throw new CommandFailure(`Error formatting the data: ${(err as Error).message}`);
  }
}

/**
 * Prints `data` as the flags ask, or the command's text from `table()` (only called in table mode, so
 * it may fetch what only the text shows). Returns the exit code, 0.
 */
export async function printSchedulerData(ctx: Pick<CommandContext, 'flags' | 'env' | 'io'>, data: unknown, table: () => string | Promise<string>): Promise<number> {
  const mode = schedulerOutputMode(ctx.flags, ctx.env);
  const io = ctx.io;
  switch (mode.kind) {
    case 'table':
      io.out(await table());
      break;
    case 'json':
    case 'yaml':
      await renderData(io, sortedKeysDeep(data ?? null), mode.kind);
      break;
    case 'field':
      // As the secrets side: one value is written bare (a newline only on a terminal), so $(...) gets it exactly.
      if (Array.isArray(data)) io.stdout.write(data.map((item) => `${fieldOf(item, mode.name)}\n`).join(''));
      else io.stdout.write(fieldOf(data, mode.name) + (io.stdout.isTTY ? '\n' : ''));
      break;
    case 'template':
      io.out(await templated(mode.text, data ?? null));
      break;
  }
  return 0;
}
