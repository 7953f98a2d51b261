/**
 * Vault users give long or secret values as `key=@file` or `key=-`; the flags that carry such values (a
 * certificate, a secret key) take the same forms, so a secret need not appear in the shell history or
 * in `ps`. `\@x` is the literal `@x`.
 */
import type { Readable } from 'node:stream';
import { UsageError } from '../../../../shared/errors.js';
import { kvSources } from '../../../kv-args.js';

export async function readFlagFile(value: string, flag: string, stdin: Readable): Promise<string> {
  if (value.startsWith('\\@')) return value.slice(1);
  const sources = kvSources(stdin);
  if (value === '-') return trimLineEnd(await sources.readStdin());
  if (!value.startsWith('@')) return value;
  const file = value.slice(1);
  if (file === '') throw new UsageError(`${flag}: "@" must be followed by a file name`);
  try {
    return trimLineEnd(await sources.readFile(file));
  } catch (err) {
    throw new UsageError(`${flag}: cannot read "${file}": ${(err as Error).message}`);
  }
}

// `echo KEY > file` ends the file with a newline that is not part of the value.
const trimLineEnd = (text: string) => text.replace(/\r?\n$/, '');
