/**
 * The allocation directory, laid out as Nomad lays it out so that `alloc fs` paths and job files that
 * reference them carry over:
 *
 *   <allocsDir>/<allocID>/alloc/{data,logs,tmp}       shared by the group's tasks (NOMAD_ALLOC_DIR)
 *   <allocsDir>/<allocID>/<task>/{local,secrets,tmp}  per task (NOMAD_TASK_DIR is local/)
 *   <allocsDir>/<allocID>/.svc/                       the runner's own state, never shown to tasks
 */
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export interface AllocDirs {
  root: string;
  /** the shared `alloc/` directory */
  shared: string;
  data: string;
  logs: string;
  tmp: string;
  /** where the alloc runner persists its state */
  state: string;
}

export interface TaskDirs {
  /** the task's directory; the exec driver's task root */
  root: string;
  local: string;
  secrets: string;
  tmp: string;
  /** the group's shared `alloc/` directory and its `logs/` */
  shared: string;
  logs: string;
}

export function allocDirs(allocsDir: string, allocId: string): AllocDirs {
  const root = path.join(allocsDir, allocId);
  const shared = path.join(root, 'alloc');
  return {
    root,
    shared,
    data: path.join(shared, 'data'),
    logs: path.join(shared, 'logs'),
    tmp: path.join(shared, 'tmp'),
    state: path.join(root, '.svc'),
  };
}

export function taskDirs(alloc: AllocDirs, task: string): TaskDirs {
  const root = path.join(alloc.root, task);
  return {
    root,
    local: path.join(root, 'local'),
    secrets: path.join(root, 'secrets'),
    tmp: path.join(root, 'tmp'),
    shared: alloc.shared,
    logs: alloc.logs,
  };
}

/**
 * mkdir then chmod: the mode must not depend on the server's umask. Synchronous: a handful of mkdirs,
 * and the runner must be able to persist its state into the directory as soon as it exists.
 */
function dir(p: string, mode: number): void {
  mkdirSync(p, { recursive: true });
  chmodSync(p, mode);
}

export function buildAllocDir(d: AllocDirs): void {
  dir(d.root, 0o755);
  dir(d.shared, 0o777);
  dir(d.data, 0o777);
  dir(d.logs, 0o777);
  dir(d.tmp, 0o1777);
  dir(d.state, 0o700);
}

export function buildTaskDir(d: TaskDirs): void {
  dir(d.root, 0o777);
  dir(d.local, 0o777);
  // Secrets are readable by the task's user only, as Nomad creates them.
  dir(d.secrets, 0o700);
  dir(d.tmp, 0o1777);
}

/**
 * A dispatched job's payload, decoded, at `local/<File>` of each task with a `dispatch_payload` block.
 * Validation keeps File inside local/; a path that resolves outside it is not written.
 */
export function writeDispatchPayload(d: TaskDirs, file: string | undefined, payload: string | null): void {
  if (!file || !payload) return;
  const target = path.resolve(d.local, file);
  if (!target.startsWith(d.local + path.sep)) return;
  mkdirSync(path.dirname(target), { recursive: true });
  writeFileSync(target, Buffer.from(payload, 'base64'), { mode: 0o644 });
}
