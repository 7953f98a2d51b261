/**
 * Keeps a running task's templates current with the secrets they read: as soon as the server tells of a
 * change (a blocking read of a KV version 2 secret, hook.ts waitForChange), or else every poll interval,
 * the secrets are read again and, when one changed, the templates re-rendered; the templates whose file changed
 * then get their `change_mode` applied as Nomad's template manager does: one restart when any of them
 * says `restart` (it covers the signals and scripts of the others), else each distinct signal once and
 * each script. A secret that cannot be read is a `Template failed: …` event; after as many failed polls
 * in a row as Nomad's default Vault retries, the task is killed and fails.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { type TaskEvent, newTaskEvent } from '../../scheduler/structs/allocation.js';
import type { Template } from '../../scheduler/structs/task.js';
import { runScriptCheck, type ScriptExec } from '../checks/script-check.js';
import { type TaskTemplates, templateEvent } from './hook.js';

/** What a re-render can do to its task. */
export interface TemplateActions {
  restart(reason: string): Promise<void>;
  signal(signal: string, reason: string): Promise<void>;
  exec: ScriptExec;
  /** kills the task with `event`, which fails it */
  kill(event: TaskEvent): void;
  emit(event: TaskEvent): void;
  /** the variables of `env = true` templates after a re-render */
  setEnv(env: Record<string, string>): void;
}

/** Nomad's default `vault_retry { attempts = 12 }`. */
const FAILED_POLLS_KILL = 12;

/**
 * The least time between two reads of a task's secrets woken by changes: under a stream of KV writes a
 * task reads its secrets at most this often, rather than once per write.
 */
const MIN_CHANGE_READ_GAP_MS = 50;

const RESTART_REASON = 'Template with change_mode restart re-rendered';
const SIGNAL_REASON = 'Template re-rendered';

export class TemplateWatcher {
  private timer?: NodeJS.Timeout;
  private stopped = false;
  private failures = 0;
  private lastError = '';
  /** ends the first render's wait for a missing secret (resume) */
  private abort?: AbortController;
  /** ends a blocking read for a change */
  private readonly watching = new AbortController();
  private lastChangeRead = 0;

  constructor(
    private readonly templates: TaskTemplates,
    private readonly actions: TemplateActions,
  ) {}

  /** Watches the secrets of templates just rendered before the task started. */
  start(): void {
    if (!this.templates.readsSecrets || this.templates.pollMs <= 0) return;
    this.schedule();
  }

  /**
   * Watches the templates of a task found running after the server restarted: they are rendered first,
   * from the secrets as they are now, and a file that changed meanwhile gets its change_mode.
   */
  resume(abort: AbortController): void {
    this.abort = abort;
    void this.templates.render().then(
      async ({ env, changed }) => {
        if (this.stopped) return;
        this.actions.setEnv(env);
        await this.apply(changed);
        this.start();
      },
      (err: Error) => {
        if (!this.stopped) this.actions.emit(templateEvent(`Template failed: ${err.message}`));
      },
    );
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
    this.abort?.abort();
    this.watching.abort();
  }

  private schedule(): void {
    if (this.stopped) return;
    void this.next();
  }

  /** The next poll: once the server tells of a change, or after the poll interval where it cannot. */
  private async next(): Promise<void> {
    const changed = await this.templates.waitForChange(this.watching.signal).catch(() => false);
    if (this.stopped) return;
    if (!changed) {
      this.timer = setTimeout(() => void this.poll(), this.templates.pollMs);
      return;
    }
    const gap = this.lastChangeRead + MIN_CHANGE_READ_GAP_MS - Date.now();
    if (gap > 0) await sleep(gap, undefined, { signal: this.watching.signal }).catch(() => undefined);
    if (this.stopped) return;
    this.lastChangeRead = Date.now();
    await this.poll();
  }

  /** One poll; resolves once its change, if any, was applied. */
  async poll(): Promise<void> {
    try {
      if (await this.templates.refresh()) {
        const { env, changed } = await this.templates.render();
        if (this.stopped) return;
        this.actions.setEnv(env);
        await this.apply(changed);
      }
      this.failures = 0;
      this.lastError = '';
    } catch (err) {
      const message = `Template failed: ${(err as Error).message}`;
      if (++this.failures >= FAILED_POLLS_KILL) {
        this.stop();
        this.actions.kill(newTaskEvent('Killing', { FailsTask: true, DisplayMessage: message, KillError: message }));
        return;
      }
      if (message !== this.lastError) this.actions.emit(templateEvent(message));
      this.lastError = message;
    }
    this.schedule();
  }

  private async apply(changed: Template[]): Promise<void> {
    if (changed.length === 0 || this.stopped) return;
    if (changed.some((t) => t.ChangeMode === 'restart')) {
      await this.actions.restart(RESTART_REASON).catch(() => undefined);
      return;
    }
    const signals = [...new Set(changed.filter((t) => t.ChangeMode === 'signal').map((t) => t.ChangeSignal))];
    for (const signal of signals) {
      try {
        await this.actions.signal(signal, SIGNAL_REASON);
      } catch (err) {
        this.actions.emit(templateEvent(`Template failed to send signals [${signal}]: ${(err as Error).message}`));
      }
    }
    for (const t of changed) if (t.ChangeMode === 'script' && t.ChangeScript) await this.runScript(t.ChangeScript);
  }

  private async runScript(script: NonNullable<Template['ChangeScript']>): Promise<void> {
    const args = script.Args ?? [];
    const outcome = await runScriptCheck(this.actions.exec, [script.Command, ...args], script.Timeout / 1e6);
    const what = `script ${script.Command} with arguments ${JSON.stringify(args)}`;
    if (outcome.Status === 'success') {
      this.actions.emit(newTaskEvent('Task hook message', { DisplayMessage: `Template ran ${what} on change` }));
      return;
    }
    const message = `Template failed to run ${what} on change: ${outcome.Output.trim()}`;
    if (script.FailOnError) this.actions.kill(newTaskEvent('Killing', { FailsTask: true, DisplayMessage: message, KillError: message }));
    else this.actions.emit(templateEvent(message));
  }
}
