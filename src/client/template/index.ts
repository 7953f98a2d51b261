/**
 * The template language of Nomad's `template` blocks (consul-template's, i.e. Go's text/template): parse
 * and render one template. See parser.ts and exec.ts for the language, funcs.ts for the functions.
 */
import { execute } from './exec.js';
import { FUNC_LOOKUP } from './funcs.js';
import type { Value } from './go-format.js';
import { parseTemplate } from './parser.js';
import type { SecretDep } from './secrets.js';

export { TemplateError } from './errors.js';

export interface RenderOptions {
  /** the name errors show, e.g. the template's source path */
  name: string;
  leftDelim?: string;
  rightDelim?: string;
  /** what `env` reads */
  env?: Record<string, string>;
  errMissingKey?: boolean;
  /** reads a file for the `file` function; by default `file` fails */
  readFile?(p: string): string;
  now?(): Date;
  /** what `secret` reads and `secrets` lists (secrets.ts); by default both fail */
  secret?(dep: SecretDep): Value;
}

/** Parses and renders `text`; throws a TemplateError naming `name:line:col`. */
export function renderTemplate(text: string, opts: RenderOptions): string {
  const parsed = parseTemplate(opts.name, text, FUNC_LOOKUP, { left: opts.leftDelim || '{{', right: opts.rightDelim || '}}' });
  return execute(parsed, {
    env: opts.env ?? {},
    errMissingKey: opts.errMissingKey ?? false,
    readFile:
      opts.readFile ??
      (() => {
        throw new Error('file is not available here');
      }),
    now: opts.now ?? (() => new Date()),
    secret: opts.secret,
  });
}
