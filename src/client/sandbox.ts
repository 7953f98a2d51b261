/**
 * Paths that a job names for a task (a template's source and destination, an artifact's destination,
 * the `file` template function), resolved as Nomad resolves them and kept inside the task's sandbox:
 * its task directory and the group's shared alloc/ directory.
 *
 *   `local/x`, `secrets/x`, `tmp/x`   the task's own directories
 *   `alloc/x`                         the group's shared alloc/ directory (as the task sees it)
 *   `${NOMAD_SECRETS_DIR}/x`          interpolated with host paths, so an absolute path in the sandbox
 *
 * Anything else is refused, also when a symbolic link (which a task can create) would lead outside.
 */
import { realpathSync } from 'node:fs';
import path from 'node:path';
import type { AllocDirs, TaskDirs } from './task-dir.js';

export class SandboxError extends Error {}

function within(root: string, p: string): boolean {
  return p === root || p.startsWith(root.endsWith(path.sep) ? root : root + path.sep);
}

export interface ResolveOptions {
  /**
   * `host`: an absolute path is a host path (Nomad's ClientPath, for `destination` and `source`);
   * `either`: a host path when it is in the sandbox, else taken from the task directory, so that both a
   * raw_exec task's `${NOMAD_TASK_DIR}/x` and an exec task's `/local/x` work (for `file`).
   */
  absolute: 'host' | 'either';
}

/** The host path of `p`; `what` names it in errors ("template destination"). */
export function resolveInSandbox(alloc: AllocDirs, task: TaskDirs, p: string, what: string, opts: ResolveOptions): string {
  const inSandbox = (x: string) => within(task.root, x) || within(task.shared, x);
  const asHost = path.isAbsolute(p) && (opts.absolute === 'host' || inSandbox(path.resolve(p)));
  let abs = asHost ? path.resolve(p) : path.resolve(task.root, p.replace(/^\/+/, ''));
  // The task's alloc/ is the group's shared directory (a bind mount in an exec task's root).
  const taskAlloc = path.join(task.root, 'alloc');
  if (within(taskAlloc, abs)) abs = path.join(task.shared, path.relative(taskAlloc, abs));
  if (!inSandbox(abs)) throw new SandboxError(`${what} ${JSON.stringify(p)} escapes the allocation directory`);
  if (within(alloc.state, abs)) throw new SandboxError(`${what} ${JSON.stringify(p)} is inside svc's private state directory`);
  return abs;
}

/**
 * Checks that `p` does not leave the sandbox through a symbolic link: its deepest existing ancestor (or
 * `p` itself) must really be inside the task directory or the shared alloc directory.
 */
export function checkRealPath(task: TaskDirs, p: string, what: string): void {
  const roots = [realpathSync(task.root), realpathSync(task.shared)];
  let probe = p;
  for (;;) {
    let real: string;
    try {
      real = realpathSync(probe);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT' && code !== 'ENOTDIR') throw err;
      const parent = path.dirname(probe);
      if (parent === probe) return;
      probe = parent;
      continue;
    }
    if (!roots.some((r) => within(r, real))) throw new SandboxError(`${what} ${JSON.stringify(p)} leads outside the allocation directory through a symbolic link`);
    return;
  }
}
