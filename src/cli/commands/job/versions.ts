import { UsageError } from '../../../shared/errors.js';

/** A `-version` value: Nomad takes an unsigned integer. */
export function parseVersionFlag(value: unknown): number | undefined {
  if (value === undefined) return undefined;
  const text = String(value).trim();
  if (!/^\d+$/.test(text)) throw new UsageError(`invalid value "${text}" for -version: expected a non-negative integer`);
  return Number(text);
}
