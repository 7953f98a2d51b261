/**
 * `-t TEMPLATE` for the scheduler commands, as Nomad's: Go's text/template over the data the command
 * would print as JSON, in the template language of `template` blocks (src/client/template). A bundle of its
 * own (dist/cli-template.cjs, scripts/build.mjs): the language is a quarter of what the scheduler
 * commands would otherwise parse on every start, for a flag few runs use.
 */
import { execute } from '../../client/template/exec.js';
import { FUNC_LOOKUP } from '../../client/template/funcs.js';
import { parseTemplate } from '../../client/template/parser.js';

/** Renders `text` over `data`; throws (a TemplateError naming the position) when it cannot. */
export function renderGoTemplate(text: string, data: unknown): string {
  const noFiles = () => {
    throw new Error('file is not available here');
  };
  return execute(parseTemplate('output', text, FUNC_LOOKUP), { env: {}, errMissingKey: false, readFile: noFiles, now: () => new Date() }, data);
}
