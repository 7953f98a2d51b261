/** The login facts config/identity selects for the token's and the alias's metadata; empty values are left out. */
export function selectedMetadata(facts: Record<string, string>, fields: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const field of fields) {
    const value = facts[field];
    if (value) out[field] = value;
  }
  return out;
}
