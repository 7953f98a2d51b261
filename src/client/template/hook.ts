/**
 * The task's `template` blocks, rendered into its directory before it starts, as Nomad's template hook
 * does: the template from `source` (a file in the allocation) or `data`, rendered with the task's
 * environment, written atomically to `destination` with `perms` (and `uid`/`gid`); with `env = true` the
 * rendered file is read as KEY=VALUE lines that join the task's environment.
 *
 * Nomad also re-renders a template whenever the Consul, Vault or Nomad data it reads changes, and then
 * applies `change_mode` (restart, signal, script). svc's templates can read only the task's environment
 * and its files, which do not change while the task runs, so a template never changes after its first
 * render: `change_mode`, `change_signal`, `change_script`, `splay`, `wait`, `once` and `vault_grace` are
 * accepted and have nothing to act on. Templates are rendered again at a restart only when the restart
 * policy says `render_templates = true`, as in Nomad, or after the server itself restarted.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { chmod, chown, mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Node } from '../../scheduler/structs/node.js';
import type { Template } from '../../scheduler/structs/task.js';
import { checkRealPath, resolveInSandbox } from '../sandbox.js';
import type { AllocDirs, TaskDirs } from '../task-dir.js';
import { interpolate } from '../task-env.js';
import { parseEnvFile } from './env-file.js';
import { renderTemplate } from './index.js';

export interface TemplateHookInput {
  templates: Template[];
  /** the task's environment, as the task sees it: what `env` reads */
  env: Record<string, string>;
  /** the same with host paths (NOMAD_TASK_DIR…): what `${…}` in `source` and `destination` is interpolated with */
  pathEnv: Record<string, string>;
  node: Node;
  allocDirs: AllocDirs;
  taskDirs: TaskDirs;
}

/**
 * Renders every template; resolves to the variables of the `env = true` ones (later templates win).
 * Throws with a message that names the template and, for template errors, line and column.
 */
export async function renderTaskTemplates(input: TemplateHookInput): Promise<Record<string, string>> {
  const env: Record<string, string> = {};
  for (const t of input.templates) Object.assign(env, await renderOne(input, t));
  return env;
}

function parsePerms(perms: string, dest: string): number {
  if (!/^[0-7]{3,4}$/.test(perms)) throw new Error(`template ${dest}: failed to parse ${JSON.stringify(perms)} as octal`);
  return parseInt(perms, 8);
}

async function renderOne(input: TemplateHookInput, t: Template): Promise<Record<string, string>> {
  const { allocDirs, taskDirs, node } = input;
  const sub = (s: string) => interpolate(s, input.pathEnv, node);
  const dest = resolveInSandbox(allocDirs, taskDirs, sub(t.DestPath), 'template destination', { absolute: 'host' });
  const perms = parsePerms(t.Perms || '0644', t.DestPath);

  let text = t.EmbeddedTmpl;
  const name = t.SourcePath || t.DestPath;
  if (t.SourcePath) {
    const src = resolveInSandbox(allocDirs, taskDirs, sub(t.SourcePath), 'template source', { absolute: 'host' });
    checkRealPath(taskDirs, src, 'template source');
    try {
      text = await readFile(src, 'utf8');
    } catch (err) {
      throw new Error(`failed to read template ${t.SourcePath}: ${(err as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (err as Error).message}`);
    }
  }

  const rendered = renderTemplate(text, {
    name,
    leftDelim: t.LeftDelim,
    rightDelim: t.RightDelim,
    env: input.env,
    errMissingKey: t.ErrMissingKey,
    readFile: (p) => {
      const file = resolveInSandbox(allocDirs, taskDirs, p, 'file', { absolute: 'either' });
      checkRealPath(taskDirs, file, 'file');
      return readFileSync(file, 'utf8');
    },
  });

  // Checked before mkdir too: a symbolic link among the parents must not make mkdir create outside.
  checkRealPath(taskDirs, dest, 'template destination');
  await mkdir(path.dirname(dest), { recursive: true, mode: 0o755 });
  checkRealPath(taskDirs, dest, 'template destination');
  await writeIfChanged(dest, rendered, perms, t);

  if (!t.Envvars) return {};
  try {
    return parseEnvFile(rendered);
  } catch (err) {
    throw new Error(`error parsing env template ${JSON.stringify(t.DestPath)}: ${(err as Error).message}`);
  }
}

/** Writes a sibling and renames it over the destination, unless content and mode are already right. */
async function writeIfChanged(dest: string, content: string, perms: number, t: Template): Promise<void> {
  try {
    const st = await stat(dest);
    if (st.isFile() && (st.mode & 0o7777) === perms && (await readFile(dest, 'utf8')) === content && ownerMatches(st, t)) return;
  } catch {
    // absent: write it
  }
  const tmp = path.join(path.dirname(dest), `.${path.basename(dest)}.${randomBytes(4).toString('hex')}.tmp`);
  try {
    await writeFile(tmp, content, { mode: perms });
    // The mode must not depend on the server's umask.
    await chmod(tmp, perms);
    if (t.Uid !== null || t.Gid !== null) {
      try {
        await chown(tmp, t.Uid ?? -1, t.Gid ?? -1);
      } catch (err) {
        throw new Error(`template ${t.DestPath}: cannot set its owner to uid ${t.Uid ?? '-'} gid ${t.Gid ?? '-'}: ${(err as Error).message}`);
      }
    }
    await rename(tmp, dest);
  } catch (err) {
    await rm(tmp, { force: true });
    throw err;
  }
}

function ownerMatches(st: { uid: number; gid: number }, t: Template): boolean {
  return (t.Uid === null || st.uid === t.Uid) && (t.Gid === null || st.gid === t.Gid);
}
