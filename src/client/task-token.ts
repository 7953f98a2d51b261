/**
 * The task's own token, for tasks with a `vault` block: where the node puts it, so that the task (and the
 * template `secret` function, which reads it from there) finds it as a Nomad task finds its Vault token.
 */
import path from 'node:path';

/** The file in the task's secrets directory that holds its token (Nomad's name). */
export const TASK_TOKEN_FILE = 'vault_token';

/** The variables that carry the token into the task's environment: Vault's name and svc's own. */
export const TASK_TOKEN_ENV = ['VAULT_TOKEN', 'SVC_TOKEN'] as const;

/** The variables that name the server the token is good at. */
export const TASK_ADDR_ENV = ['VAULT_ADDR', 'SVC_ADDR'] as const;

/** The token's path on the host, given the task's secrets directory (TaskDirs.secrets). */
export function taskTokenPath(secretsDir: string): string {
  return path.join(secretsDir, TASK_TOKEN_FILE);
}
