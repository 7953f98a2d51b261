/**
 * The task's `template` blocks, rendered into its directory before it starts, as Nomad's template hook
 * does: the template from `source` (a file in the allocation) or `data`, rendered with the task's
 * environment, written atomically to `destination` with `perms` (and `uid`/`gid`); with `env = true` the
 * rendered file is read as KEY=VALUE lines that join the task's environment.
 *
 * A template may read secrets (`secret`) and list them (`secrets`, secrets.ts) with the task's token.
 * The first render waits for a secret that does not exist yet, as consul-template does, with a
 * `Missing: vault.read(<path>)` event; a list of nothing is empty, and no wait.
 * While the task runs, watch.ts reads those secrets again and re-renders on a change, applying the
 * template's `change_mode`; a template that reads no secret never changes after its first render, so
 * `splay`, `wait`, `once` and `vault_grace` are accepted and have nothing to act on. Templates are
 * rendered again at a restart only when the restart policy says `render_templates = true`, as in Nomad,
 * or after the server itself restarted.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { chmod, chown, mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { type TaskEvent, newTaskEvent } from '../../scheduler/structs/allocation.js';
import type { Node } from '../../scheduler/structs/node.js';
import type { Template } from '../../scheduler/structs/task.js';
import { checkRealPath, resolveInSandbox } from '../sandbox.js';
import type { AllocDirs, TaskDirs } from '../task-dir.js';
import { TASK_TOKEN_ENV, taskTokenPath } from '../task-token.js';
import { interpolate } from '../task-env.js';
import { parseEnvFile } from './env-file.js';
import type { Value } from './go-format.js';
import { renderTemplate } from './index.js';
import { type SecretDep, type SecretSource, SecretCache, SecretMissing, SecretReadFailed, depKey, depName, fetchSecret } from './secrets.js';

export interface TemplateHookInput {
  templates: Template[];
  /** the task's environment, as the task sees it: what `env` reads */
  env: Record<string, string>;
  /** the same with host paths (NOMAD_TASK_DIR…): what `${…}` in `source` and `destination` is interpolated with */
  pathEnv: Record<string, string>;
  node: Node;
  allocDirs: AllocDirs;
  taskDirs: TaskDirs;
  /** what `secret` reads and `secrets` lists; without it both fail */
  secrets?: SecretSource;
  /**
   * the task's own token as its node holds it, renewed or replaced: what `secret` reads with, whether or
   * not the task sees it (vault { env = false, disable_file = true })
   */
  token?: () => string | undefined;
  /** ends a wait for a missing secret (the task is killed) */
  signal?: AbortSignal;
  /** the task's events: a secret the first render waits for */
  emit?(event: TaskEvent): void;
}

/** How long one blocking read of a watched secret waits, at most, before it is sent again. */
const WATCH_WAIT_SECONDS = 300;

/** Renders of one task's templates, remembering the secrets each read so that they can be watched. */
export class TaskTemplates {
  private readonly caches: SecretCache[];
  /** the secrets watched (by the paths the templates read), each with the index its next blocking read waits past */
  private watched: { key: string; reads: { dep: SecretDep; index: number }[] } | undefined;

  constructor(private readonly input: TemplateHookInput) {
    this.caches = input.templates.map(() => new SecretCache());
  }

  get readsSecrets(): boolean {
    return this.caches.some((c) => c.values.size > 0);
  }

  get pollMs(): number {
    return this.input.secrets?.pollMs ?? 0;
  }

  /**
   * Waits for a change to the secrets the templates read, where the server can tell of one (its blocking
   * KV reads): true once one may have happened, so the caller reads them again; false when they cannot
   * all be watched so, and the caller polls instead. The server answers one index for all the secrets of
   * a KV version, so one blocking read stands for every secret that answered the same index; the first
   * call (and the first after the secrets read changed) only learns the indexes, answering true so that
   * a change made since the render is read.
   */
  async waitForChange(signal: AbortSignal): Promise<boolean> {
    const source = this.input.secrets;
    const read = this.caches.flatMap((c) => [...c.values.values()].map((e) => e.dep));
    // A LIST cannot block on the server: a template that lists is polled, as consul-template polls vault.list.
    if (read.some((d) => d.list)) return false;
    const deps = [...new Map(read.filter((d) => !d.params).map((d) => [d.path, d] as const)).values()];
    if (!source?.watch || deps.length === 0) return false;
    const watch = source.watch.bind(source);
    const key = JSON.stringify(deps.map((d) => d.path).sort());
    if (this.watched?.key !== key) {
      const indexes = await Promise.all(deps.map((d) => watch(d.path, this.token(d), 0, 0, signal)));
      if (indexes.some((i) => i === undefined)) return false;
      const byIndex = new Map(deps.map((dep, i) => [indexes[i]!, dep]));
      this.watched = { key, reads: [...byIndex].map(([index, dep]) => ({ dep, index })) };
      return true;
    }
    // The first read to answer ends the others.
    const done = new AbortController();
    const either = AbortSignal.any([signal, done.signal]);
    try {
      const reads = this.watched.reads;
      const [read, next] = await Promise.race(reads.map(async (r) => [r, await watch(r.dep.path, this.token(r.dep), r.index, WATCH_WAIT_SECONDS, either)] as const));
      if (next === undefined) return false;
      read.index = next;
      return true;
    } finally {
      done.abort();
    }
  }

  /**
   * Renders every template; resolves to the variables of the `env = true` ones (later templates win) and
   * the templates whose file changed. Throws with a message that names the template and, for template
   * errors, line and column.
   */
  async render(): Promise<{ env: Record<string, string>; changed: Template[] }> {
    const env: Record<string, string> = {};
    const changed: Template[] = [];
    for (const [i, t] of this.input.templates.entries()) {
      const out = await renderOne(this.input, t, (text, opts) => this.renderWithSecrets(text, opts, this.caches[i]));
      Object.assign(env, out.env);
      if (out.written) changed.push(t);
    }
    return { env, changed };
  }

  /**
   * Reads every secret a render read again; resolves to whether any of their data changed. A secret that
   * cannot be read keeps its last value and the first such error is thrown once all were tried.
   */
  async refresh(): Promise<boolean> {
    let changed = false;
    let failure: Error | undefined;
    for (const cache of this.caches) {
      for (const [key, entry] of cache.values) {
        // A write is made by each render that asks for it, not repeated on a timer.
        if (entry.dep.params) continue;
        try {
          const value = await fetchSecret(this.source(), entry.dep, this.token(entry.dep));
          if (JSON.stringify(compared(entry.dep, value)) !== JSON.stringify(compared(entry.dep, entry.value))) {
            cache.values.set(key, { dep: entry.dep, value });
            changed = true;
          }
        } catch (err) {
          failure ??= err as Error;
        }
      }
    }
    if (failure) throw failure;
    return changed;
  }

  private async renderWithSecrets(text: string, opts: Parameters<typeof renderTemplate>[1], cache: SecretCache): Promise<string> {
    // Each pass can reveal secrets whose paths come from other secrets; a chain longer than this is a loop.
    for (let pass = 0; pass < 16; pass++) {
      cache.missing = [];
      let out: string | undefined;
      let failed: unknown;
      try {
        out = renderTemplate(text, { ...opts, secret: (d) => cache.lookup(d) });
      } catch (err) {
        failed = err;
      }
      // A render with secrets still missing saw nil in their place: its output and errors mean nothing.
      if (cache.missing.length === 0) {
        if (failed) throw failed;
        return out!;
      }
      for (const dep of cache.missing) {
        try {
          cache.values.set(depKey(dep), { dep, value: await this.fetchWaiting(dep) });
        } catch (err) {
          if (err instanceof SecretReadFailed) throw new SecretReadFailed(`${opts.name}: ${err.message}`);
          throw err;
        }
      }
    }
    throw new Error(`${opts.name}: the secrets it reads keep naming other secrets`);
  }

  /** Fetches a secret, waiting for one that does not exist yet. */
  private async fetchWaiting(dep: SecretDep): Promise<Value> {
    let reported = false;
    for (;;) {
      try {
        return await fetchSecret(this.source(), dep, this.token(dep));
      } catch (err) {
        if (!(err instanceof SecretMissing)) throw err;
        if (!reported) this.input.emit?.(templateEvent(`Missing: ${depName(dep)}`));
        reported = true;
        await sleep(this.pollMs, undefined, { signal: this.input.signal });
      }
    }
  }

  private source(): SecretSource {
    if (!this.input.secrets) throw new SecretReadFailed('secret: this node cannot reach the secrets API');
    return this.input.secrets;
  }

  /** The task's own token: as its node holds it, else its secrets/vault_token file, else its VAULT_TOKEN or SVC_TOKEN. */
  private token(dep: SecretDep): string {
    const held = this.input.token?.();
    if (held) return held;
    try {
      const token = readFileSync(taskTokenPath(this.input.taskDirs.secrets), 'utf8').trim();
      if (token) return token;
    } catch {
      // no token file: the environment may hold one
    }
    const fromEnv = TASK_TOKEN_ENV.map((name) => this.input.env[name]).find(Boolean);
    if (fromEnv) return fromEnv;
    throw new SecretReadFailed(`${depName(dep)}: the task has no token to read secrets with: give the task or its group a vault block`);
  }
}

/** What a change is told by: a secret's data (not its request ID), a list's keys. */
const compared = (dep: SecretDep, value: Value): Value => (dep.list ? value : (value as { Data?: Value } | undefined)?.Data);

/** An event of the template runner, as Nomad's "Template" events. */
export const templateEvent = (message: string): TaskEvent => newTaskEvent('Template', { DisplayMessage: message, Message: message, Details: { message } });

function parsePerms(perms: string, dest: string): number {
  if (!/^[0-7]{3,4}$/.test(perms)) throw new Error(`template ${dest}: failed to parse ${JSON.stringify(perms)} as octal`);
  return parseInt(perms, 8);
}

type Render = (text: string, opts: Parameters<typeof renderTemplate>[1]) => Promise<string>;

async function renderOne(input: TemplateHookInput, t: Template, render: Render): Promise<{ env: Record<string, string>; written: boolean }> {
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

  const rendered = await render(text, {
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
  const written = await writeIfChanged(dest, rendered, perms, t);

  if (!t.Envvars) return { env: {}, written };
  try {
    return { env: parseEnvFile(rendered), written };
  } catch (err) {
    throw new Error(`error parsing env template ${JSON.stringify(t.DestPath)}: ${(err as Error).message}`);
  }
}

/**
 * Writes a sibling and renames it over the destination, unless content and mode are already right;
 * resolves to whether it wrote.
 */
async function writeIfChanged(dest: string, content: string, perms: number, t: Template): Promise<boolean> {
  try {
    const st = await stat(dest);
    if (st.isFile() && (st.mode & 0o7777) === perms && (await readFile(dest, 'utf8')) === content && ownerMatches(st, t)) return false;
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
  return true;
}

function ownerMatches(st: { uid: number; gid: number }, t: Template): boolean {
  return (t.Uid === null || st.uid === t.Uid) && (t.Gid === null || st.gid === t.Gid);
}
