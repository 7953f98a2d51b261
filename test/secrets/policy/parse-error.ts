/** The UserError a policy document fails to parse with; fails the test if it parses. */
import { expect } from 'vitest';
import { parsePolicy } from '../../../src/secrets/policy/policy.js';
import { UserError } from '../../../src/shared/errors.js';

export async function parseError(text: string, name = 'p'): Promise<UserError> {
  const err: unknown = await parsePolicy(name, text).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(UserError);
  return err as UserError;
}
