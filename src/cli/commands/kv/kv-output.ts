/** The sections Vault's kv commands print for a table: a path under its heading, then Key/Value tables under theirs. */
import type { Io } from '../../io.js';
import { formatTable, secretRows, type OutputFormat, type SecretResponse, renderSecret } from '../../output/format.js';
import type { CommandContext } from '../../define.js';
import { heading, headingFor } from './kv-mount.js';

export function printPath(io: Io, title: string, path: string): void {
  io.out(`${heading(title, path.length)}\n${path}\n\n`);
}

/** A titled Key/Value table of `data`. */
export function printSection(io: Io, title: string, data: Record<string, unknown>): void {
  io.out(`${headingFor(title, data)}\n${formatTable(['Key', 'Value'], secretRows({ data }), { dashes: true })}`);
}

export function outputOptions(ctx: CommandContext): { format: OutputFormat; field?: string } {
  const field = ctx.flags.field as string | undefined;
  return { format: ctx.flags.format as OutputFormat, field: field === '' ? undefined : field };
}

/**
 * The answer of a version 2 write (put, patch): with -field or -format=json|yaml as `svc write` prints it,
 * else the secret's path and its new version's metadata.
 */
export async function printWritten(ctx: CommandContext, path: string, secret: SecretResponse | undefined): Promise<number> {
  const opts = outputOptions(ctx);
  if (!secret) {
    if (opts.format === 'table' && opts.field === undefined) ctx.io.out(`Success! Data written to: ${path}`);
    return 0;
  }
  if (opts.field !== undefined || opts.format !== 'table') {
    await renderSecret(ctx.io, secret, opts);
    return 0;
  }
  printWarnings(ctx.io, secret);
  printPath(ctx.io, 'Secret Path', path);
  printSection(ctx.io, 'Metadata', secret.data ?? {});
  return 0;
}

export function printWarnings(io: Io, secret: SecretResponse): void {
  const warnings = secret.warnings ?? [];
  if (warnings.length === 0) return;
  io.err(['WARNING! The following warnings were returned from the server:', '', ...warnings.flatMap((w) => [`  * ${w}`, ''])].join('\n'));
}
