/**
 * The prestart hooks that run before each start of a task, once its directory is built, in Nomad's
 * order: artifacts, then templates (so that a template's `source` may come from an artifact).
 *
 * - Artifacts: `Downloading Artifacts`, then each artifact not yet downloaded for this allocation; a
 *   failure is a `Failed Artifact Download` event and a recoverable error, so the restart policy tries
 *   again (an artifact that did arrive is not fetched again).
 * - Templates: a failure is a `Task hook failed` event ("template: <file>:<line>:<col>: …") and is not
 *   recoverable: the same template would fail the same way.
 */
import { createHash } from 'node:crypto';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import type { TaskEvent } from '../scheduler/structs/allocation.js';
import type { Node } from '../scheduler/structs/node.js';
import type { Task, TaskArtifact } from '../scheduler/structs/task.js';
import { getArtifact } from './artifact/getter.js';
import type { AllocDirs, TaskDirs } from './task-dir.js';
import * as ev from './task-events.js';
import { goQuote } from './template/go-format.js';
import { TaskTemplates } from './template/hook.js';
import type { SecretSource } from './template/secrets.js';

/** A prestart hook failed: the event to record, and whether the restart policy may try again. */
export class TaskHookError extends Error {
  constructor(
    message: string,
    readonly event: TaskEvent,
    readonly recoverable: boolean,
  ) {
    super(message);
  }
}

export interface PrestartContext {
  task: Task;
  /** the task's environment as the task sees it (without what templates add) */
  env: Record<string, string>;
  /** the same with host paths for NOMAD_ALLOC_DIR, NOMAD_TASK_DIR and NOMAD_SECRETS_DIR (the same for raw_exec) */
  pathEnv: Record<string, string>;
  node: Node;
  allocDirs: AllocDirs;
  taskDirs: TaskDirs;
  /** aborted when the task is killed or the runner detaches meanwhile */
  signal: AbortSignal;
  emit(event: TaskEvent): void;
  /** what templates' `secret` reads */
  secrets?: SecretSource;
  /** the task's own token, which `secret` reads with (TemplateHookInput.token) */
  token?: () => string | undefined;
}

const sortedEntries = (m: Record<string, string> | null) => Object.entries(m ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));

/** Identifies an artifact definition: a changed definition (a new job version) is downloaded again. */
export function artifactId(a: TaskArtifact): string {
  const canonical = [a.GetterSource, sortedEntries(a.GetterOptions), sortedEntries(a.GetterHeaders), a.GetterMode, a.GetterInsecure, a.RelativeDest, a.Chown];
  return createHash('sha256').update(JSON.stringify(canonical)).digest('hex').slice(0, 32);
}

/**
 * Downloads the artifacts not in `done`, adding each to it (and calling `onDone`) as it arrives.
 * Throws a TaskHookError on failure, or the abort reason when aborted.
 */
export async function runArtifacts(ctx: PrestartContext, done: Set<string>, onDone: () => void): Promise<void> {
  const pending = (ctx.task.Artifacts ?? []).filter((a) => !done.has(artifactId(a)));
  if (pending.length === 0) return;
  ctx.emit(ev.downloadingArtifacts());
  // The task's own staging directory: what an interrupted attempt (or server) left there goes first.
  const stagingDir = path.join(ctx.allocDirs.state, 'artifacts', encodeURIComponent(ctx.task.Name));
  await rm(stagingDir, { recursive: true, force: true });
  for (const artifact of pending) {
    try {
      await getArtifact({ artifact, env: ctx.pathEnv, node: ctx.node, allocDirs: ctx.allocDirs, taskDirs: ctx.taskDirs, stagingDir, signal: ctx.signal });
    } catch (err) {
      if (ctx.signal.aborted) throw err;
      const message = `failed to download artifact ${goQuote(artifact.GetterSource)}: ${(err as Error).message}`;
      throw new TaskHookError(message, ev.artifactDownloadFailed(message), true);
    }
    done.add(artifactId(artifact));
    onDone();
  }
}

/**
 * Renders the task's templates; resolves to the variables `env = true` templates add, and the renders
 * (which remember the secrets they read, for the watch that re-renders them).
 */
export async function runTemplates(ctx: PrestartContext): Promise<{ env: Record<string, string>; templates: TaskTemplates }> {
  const { task, env, pathEnv, node, allocDirs, taskDirs, secrets, signal } = ctx;
  const templates = new TaskTemplates({ templates: task.Templates ?? [], env, pathEnv, node, allocDirs, taskDirs, secrets, token: ctx.token, signal, emit: ctx.emit });
  try {
    return { env: (await templates.render()).env, templates };
  } catch (err) {
    const message = `template: ${(err as Error).message}`;
    throw new TaskHookError(message, ev.hookFailed(message), false);
  }
}
