/**
 * A task's default workload identity, as Nomad's identity hook hands it over: signed by the server when
 * the task starts, in NOMAD_TOKEN with `identity { env = true }` and in secrets/nomad_token (0600, or the
 * block's `filepath` inside the task's directory) with `file = true`; a task whose block asks for
 * neither gets nothing. An identity with a `ttl` is signed again at half its life: the file is rewritten
 * and the task told by the block's `change_mode` (restart or signal; noop leaves the task to read the
 * file again), as Nomad's identity manager does.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Logger } from '../shared/log.js';
import type { WorkloadIdentity } from '../scheduler/structs/task.js';

/** Nomad's file for the default identity, in the task's secrets directory. */
const IDENTITY_FILE = 'nomad_token';

/** How the node gets identities signed: the node API's sign-identities. */
export interface IdentitySource {
  /** the JWT of the task's default identity, and when it expires (unix seconds, 0 for never) */
  sign(allocId: string, task: string): Promise<{ jwt: string; expiresAt: number }>;
}

export interface TaskIdentityOptions {
  allocId: string;
  task: string;
  identity: WorkloadIdentity;
  /** the task's directory (TaskDirs.root) and its secrets directory */
  taskDir: string;
  secretsDir: string;
  source: IdentitySource;
  log: Logger;
  /** a new JWT replaced the one the task had (its file holds it already) */
  onRenewed?(): void;
}

/** Whether the task's identity block asks for its JWT at all. */
export function identityWanted(identity: WorkloadIdentity | null | undefined): identity is WorkloadIdentity {
  return identity != null && (identity.Env || identity.File);
}

export class TaskIdentity {
  private jwt = '';
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(private readonly opts: TaskIdentityOptions) {}

  /** Where the file goes: the block's filepath inside the task's directory, or secrets/nomad_token. */
  private get file(): string {
    const { identity, taskDir, secretsDir } = this.opts;
    if (identity.Filepath === '') return path.join(secretsDir, IDENTITY_FILE);
    const target = path.resolve(taskDir, identity.Filepath);
    if (!target.startsWith(`${path.resolve(taskDir)}${path.sep}`)) {
      throw new Error(`identity filepath "${identity.Filepath}" must be a path inside the task's directory`);
    }
    return target;
  }

  /** Signs the identity for this start and puts it where the block asks. */
  async prepare(): Promise<void> {
    clearTimeout(this.timer);
    await this.fetch();
  }

  private async fetch(): Promise<void> {
    const { jwt, expiresAt } = await this.opts.source.sign(this.opts.allocId, this.opts.task);
    if (this.opts.identity.File) writeFileSync(this.file, jwt, { mode: 0o600 });
    this.jwt = jwt;
    this.schedule(expiresAt);
  }

  /** NOMAD_TOKEN when the block has `env = true`. */
  env(): Record<string, string> {
    return this.opts.identity.Env && this.jwt !== '' ? { NOMAD_TOKEN: this.jwt } : {};
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
  }

  private schedule(expiresAt: number): void {
    if (this.stopped || expiresAt <= 0) return;
    const remainingMs = expiresAt * 1000 - Date.now();
    this.timer = setTimeout(() => void this.renew(), Math.max(0, remainingMs / 2));
    this.timer.unref();
  }

  private async renew(): Promise<void> {
    if (this.stopped) return;
    try {
      await this.fetch();
    } catch (err) {
      // The old JWT runs out; a restart of the task signs a new one (prepare).
      this.opts.log.warn(`task ${this.opts.task}: signing its identity again failed: ${(err as Error).message}`);
      return;
    }
    this.opts.onRenewed?.();
  }
}
