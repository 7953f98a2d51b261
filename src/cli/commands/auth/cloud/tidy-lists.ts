/**
 * The two lists tidy works on. The API names them identity-accesslist and roletag-denylist; the
 * commands accept those and the short names the other commands use (accesslist, denylist).
 */
import { UsageError } from '../../../../shared/errors.js';

export const TIDY_LISTS = {
  accesslist: { api: 'identity-accesslist', what: 'identity access list' },
  denylist: { api: 'roletag-denylist', what: 'role tag deny list' },
} as const;

export type TidyListName = keyof typeof TIDY_LISTS;

/** The API name of a list given as `accesslist`, `identity-accesslist`, `denylist` or `roletag-denylist`. */
export function tidyListSegment(given: string): string {
  for (const [short, { api }] of Object.entries(TIDY_LISTS)) if (given === short || given === api) return api;
  const names = Object.entries(TIDY_LISTS).map(([short, { api }]) => `${api} (or ${short})`);
  throw new UsageError(`unknown list "${given}": use ${names.join(' or ')}`);
}
