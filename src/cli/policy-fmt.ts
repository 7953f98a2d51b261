/**
 * `svc policy fmt`: check an HCL policy file with the server's parser, then rewrite it in its canonical
 * layout. A bundle of its own (scripts/build.mjs): the policy parser and the formatter are needed by no
 * other command. The declaration is in src/cli/commands/policy/fmt.ts.
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { UsageError, UserError } from '../shared/errors.js';
import { parsePolicy } from '../secrets/policy/policy.js';
import type { CommandContext } from './define.js';
import { formatHcl } from '../shared/hcl/format.js';
import { readFailure } from './read-failure.js';
import { CommandFailure, reportingFailures } from './command-failure.js';

export function policyFmt(ctx: CommandContext): Promise<number> {
  // Wrapped here, in the bundle that throws it: a CommandFailure is told apart by its class.
  return reportingFailures(ctx, () => formatFile(ctx));
}

async function formatFile(ctx: CommandContext): Promise<number> {
  const file = ctx.args[0];
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    throw new CommandFailure(`Error reading source file "${file}": ${readFailure(err)}`);
  }
  if (text.trimStart().startsWith('{')) throw new UserError(`${file} holds a JSON policy; only HCL policies are formatted`);
  // The name only labels parse errors; the file's name says which policy it is.
  await parsePolicy(path.basename(file).replace(/\.[^.]*$/, '') || 'policy', text);
  const formatted = formatHcl(text);
  if (formatted !== text) {
    try {
      await writeFile(file, formatted);
    } catch (err) {
      throw new UsageError(`Error writing result to "${file}": ${(err as Error).message}`);
    }
  }
  ctx.io.out(`Success! Formatted policy: ${file}`);
  return 0;
}
