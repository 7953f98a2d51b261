/**
 * What was wrong with a JSON body, without the body: V8 quotes the text it could not parse (`Unexpected
 * token 's', "{"password": secret}" is not valid JSON`), and the message goes back to the caller, to the
 * server log and to the audit log, where a secret in a malformed body must not appear.
 */
export function jsonSyntaxProblem(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  return message.replace(/, .*is not valid JSON$/s, ' (not valid JSON)');
}
