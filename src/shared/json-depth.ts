import { BACKSLASH, CLOSE_BRACE, CLOSE_BRACKET, OPEN_BRACE, OPEN_BRACKET, QUOTE } from './json-chars.js';

/**
 * The deepest a request's JSON may nest, checked on its text before anything parses or walks it: a
 * handler, a validator or a copy that recurses over a body nested ten thousand deep runs out of stack,
 * which would answer 500 (or worse, stop midway through a write). 300 is Vault's `max_json_depth`
 * default; no job, policy or secret the APIs take comes near it.
 */
export const MAX_JSON_DEPTH = 300;

/**
 * Whether the JSON text nests arrays and objects deeper than `limit`; one pass over its bytes (quotes
 * and backslashes are ASCII, so UTF-8 needs no decoding), strings skipped. Text that is not JSON is
 * left to the parser to refuse.
 */
export function nestsDeeperThan(text: Buffer | string, limit = MAX_JSON_DEPTH): boolean {
  const bytes = typeof text === 'string' ? Buffer.from(text) : text;
  let depth = 0;
  let inString = false;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i];
    if (inString) {
      if (b === BACKSLASH) i++;
      else if (b === QUOTE) inString = false;
    } else if (b === QUOTE) inString = true;
    else if (b === OPEN_BRACE || b === OPEN_BRACKET) {
      if (++depth > limit) return true;
    } else if (b === CLOSE_BRACE || b === CLOSE_BRACKET) depth--;
  }
  return false;
}

/** The refusal's wording, the same on both sides. */
export const tooDeep = (limit = MAX_JSON_DEPTH) => `the JSON nests deeper than ${limit} levels of arrays and objects, the most a request may`;
