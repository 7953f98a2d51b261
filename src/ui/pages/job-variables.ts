/**
 * The run page's text handling without the page: the variables textarea as the variable file the parse
 * endpoint reads, and where in which file a parse error points.
 */

/** A job file's place in an error: the file the server named it by, its line and column. */
export interface SourcePosition {
  file: string;
  line: number;
  column: number;
}

export const VARIABLES_FILE = 'variables.hcl';

/** The first `<file>:<line>:<column>:` an error message names. */
export function errorPosition(message: string): SourcePosition | undefined {
  const m = /([\w./-]+):(\d+):(\d+): /.exec(message);
  return m ? { file: m[1], line: Number(m[2]), column: Number(m[3]) } : undefined;
}

/**
 * `key=value` lines as the variable file the parse endpoint reads: a value is a string unless it is
 * written as an HCL list or object, and a string's `${` and `%{` are kept literal. Blank and `#` lines
 * stay blank, so the server's line numbers are the textarea's; a line that is no assignment is refused
 * by its number.
 */
export function variablesFile(text: string): string {
  const out: string[] = [];
  text.split('\n').forEach((raw, i) => {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) {
      out.push('');
      return;
    }
    const eq = line.indexOf('=');
    const key = eq < 0 ? '' : line.slice(0, eq).trim();
    if (!/^[A-Za-z_][A-Za-z0-9_-]*$/.test(key)) throw new Error(`Variables line ${i + 1}: expected name=value, got "${line}"`);
    const value = line.slice(eq + 1).trim();
    // HCL escapes a template opener by doubling its sign; a function, since `$$` in a replacement string is itself an escape.
    const literal = /^[[{]/.test(value) ? value : JSON.stringify(value).replace(/[$%]\{/g, (m) => `${m[0]}${m}`);
    out.push(`${key} = ${literal}`);
  });
  return out.join('\n').trimEnd();
}
