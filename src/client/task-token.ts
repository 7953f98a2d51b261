/**
 * The task's own token, for tasks with a `vault` block: where the node puts it, so that the task (and the
 * template `secret` function, which reads it from there) finds it as a Nomad task finds its Vault token;
 * and the hook that gets it from the server before the task starts and renews it while the task lives.
 *
 * The token is kept across the task's restarts and the node's (it is read back from its file); a task
 * given a new one (its file gone, or the old token refused) makes the server revoke the old one. A token
 * that can no longer be renewed (revoked, or past its max TTL) is replaced, and the task told by its
 * `change_mode`, as Nomad's vault hook does.
 */
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Logger } from '../shared/log.js';
import type { Vault } from '../scheduler/structs/task.js';

/** The file in the task's secrets directory that holds its token (Nomad's name). */
const TASK_TOKEN_FILE = 'vault_token';

/** The variables that carry the token into the task's environment: Vault's name and svc's own. */
export const TASK_TOKEN_ENV = ['VAULT_TOKEN', 'SVC_TOKEN'] as const;

/** The variables that name the server the token is good at. */
const TASK_ADDR_ENV = ['VAULT_ADDR', 'SVC_ADDR'] as const;

/** The token's path on the host, given the task's secrets directory (TaskDirs.secrets). */
export function taskTokenPath(secretsDir: string): string {
  return path.join(secretsDir, TASK_TOKEN_FILE);
}

/** How the node reaches the server for its tasks' tokens. */
export interface TaskTokenSource {
  /** the server's address, as the task is told it (VAULT_ADDR) */
  address: string;
  /** a new token for the task of the allocation, and its lease in seconds (the node API's derive-token) */
  derive(allocId: string, task: string): Promise<{ token: string; leaseSeconds: number }>;
  /** renews the token with itself (auth/token/renew-self); resolves to its new lease in seconds */
  renew(token: string): Promise<number>;
}

export interface TaskTokenOptions {
  allocId: string;
  task: string;
  vault: Vault;
  secretsDir: string;
  source: TaskTokenSource;
  log: Logger;
  /** the token could not be renewed and the task has a new one (the file holds it already) */
  onReplaced?(): void;
}

/** One task's token: got before its first start, renewed at half its lease until `stop`. */
export class TaskToken {
  private token = '';
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(private readonly opts: TaskTokenOptions) {}

  /** The token as the task holds it now (renewed, or replaced); undefined before it is got. */
  get current(): string | undefined {
    return this.token || undefined;
  }

  private get file(): string {
    return taskTokenPath(this.opts.secretsDir);
  }

  /** Has a usable token: the one the task already had, renewed, or a new one from the server. */
  async prepare(): Promise<void> {
    if (this.token !== '') return;
    const kept = !this.opts.vault.DisableFile && existsSync(this.file) ? readFileSync(this.file, 'utf8').trim() : '';
    if (kept !== '') {
      try {
        this.token = kept;
        this.schedule(await this.opts.source.renew(kept));
        return;
      } catch {
        // Revoked or expired while the node was away: the task gets a new one.
        this.token = '';
      }
    }
    await this.derive();
  }

  private async derive(): Promise<void> {
    const { token, leaseSeconds } = await this.opts.source.derive(this.opts.allocId, this.opts.task);
    this.token = token;
    if (this.opts.vault.DisableFile) rmSync(this.file, { force: true });
    else writeFileSync(this.file, token, { mode: 0o600 });
    this.schedule(leaseSeconds);
  }

  /** What the task's environment gains: the server's address always, the token unless `env = false`. */
  env(): Record<string, string> {
    const out: Record<string, string> = {};
    for (const name of TASK_ADDR_ENV) out[name] = this.opts.source.address;
    if (this.opts.vault.Env && this.token !== '') for (const name of TASK_TOKEN_ENV) out[name] = this.token;
    return out;
  }

  /** Renews the token now, and again at half the lease the server gives. */
  renewNow(): Promise<void> {
    clearTimeout(this.timer);
    return this.opts.source.renew(this.token).then(
      (lease) => this.schedule(lease),
      (err: Error) => this.replace(err),
    );
  }

  private async replace(cause: Error): Promise<void> {
    this.opts.log.warn(`task ${this.opts.task}: renewing its token failed, getting a new one: ${cause.message}`);
    if (this.stopped) return;
    try {
      await this.derive();
    } catch (err) {
      // The old token runs out; the task goes on, and a restart tries again (prepare).
      this.opts.log.error(`task ${this.opts.task}: getting a new token failed: ${(err as Error).message}`);
      this.token = '';
      return;
    }
    this.opts.onReplaced?.();
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
  }

  private schedule(leaseSeconds: number): void {
    if (this.stopped || leaseSeconds <= 0) return;
    // Half the lease, as Nomad's renewal loop: time enough to try again before it ends.
    this.timer = setTimeout(() => void this.renewNow(), (leaseSeconds * 1000) / 2);
    this.timer.unref();
  }
}
