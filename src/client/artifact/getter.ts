/**
 * Fetches one `artifact` into the task directory, as Nomad's artifact hook does through go-getter:
 *
 * - the source, options, headers and destination are interpolated with the task's environment first;
 * - http:// and https:// URLs are downloaded; local paths and file:// URLs are copied (a directory
 *   with its contents); other getters (git::, s3::, gcs::, hg::…) fail with a message that says so;
 * - `options { checksum = "sha256:<hex>" }` (md5, sha1, sha256, sha512) is checked before anything is
 *   placed;
 * - mode `file` writes the destination path itself; `any` (the default) and `dir` write into the
 *   destination directory, unpacking .tar.gz/.tgz/.tar(.bz2|.xz)/.zip/.gz archives unless
 *   `options { archive = "false" }`.
 *
 * Downloads are staged in the allocation's private state directory and only then moved into place, so a
 * failed or interrupted download leaves nothing half-written where the task looks.
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { copyFile, cp, lstat, mkdir, mkdtemp, readdir, rename, rm, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import type { Node } from '../../scheduler/structs/node.js';
import type { TaskArtifact } from '../../scheduler/structs/task.js';
import { checkRealPath, resolveInSandbox } from '../sandbox.js';
import type { AllocDirs, TaskDirs } from '../task-dir.js';
import { interpolate } from '../task-env.js';
import { download } from './http.js';
import { type Checksum, parseArtifact } from './source.js';
import { archiveType, gunzipFile, gunzippedName, unpackInto } from './unpack.js';

export interface ArtifactRequest {
  artifact: TaskArtifact;
  /** the task's environment with host paths (NOMAD_TASK_DIR…), as Nomad interpolates artifacts */
  env: Record<string, string>;
  node: Node;
  allocDirs: AllocDirs;
  taskDirs: TaskDirs;
  /** a directory of svc's own (outside the task's view) where downloads are staged */
  stagingDir: string;
  signal?: AbortSignal;
}

function interpolateMap(m: Record<string, string> | null, env: Record<string, string>, node: Node): Record<string, string> {
  return Object.fromEntries(Object.entries(m ?? {}).map(([k, v]) => [k, interpolate(v, env, node)]));
}

async function verifyChecksum(file: string, name: string, want: Checksum): Promise<void> {
  const hash = createHash(want.type);
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  const got = hash.digest('hex');
  if (got !== want.hex) throw new Error(`checksums did not match for ${name}: expected ${want.type}:${want.hex}, got ${want.type}:${got}`);
}

/** Removes a symbolic link at `p`, so that writing there cannot follow it elsewhere. */
async function clearLink(p: string): Promise<void> {
  try {
    if ((await lstat(p)).isSymbolicLink()) await unlink(p);
  } catch {
    // nothing there
  }
}

/** A plain file into place: renamed when it is ours (staged), copied when it is the user's. */
async function placeFile(src: string, dest: string, owned: boolean): Promise<void> {
  await mkdir(path.dirname(dest), { recursive: true });
  await clearLink(dest);
  if (owned) await rename(src, dest);
  else await copyFile(src, dest);
}

/** The one regular file an archive unpacked in `dir` holds (for mode "file"). */
async function singleFile(dir: string): Promise<string> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  const files = entries.filter((e) => e.isFile());
  if (files.length !== 1) throw new Error(`mode "file" needs an archive with exactly one file; this one has ${files.length}`);
  return path.join(files[0].parentPath, files[0].name);
}

/** Downloads or copies the artifact into place; throws with a message fit for the task's events. */
export async function getArtifact(req: ArtifactRequest): Promise<void> {
  const { artifact: a, env, node, allocDirs, taskDirs, signal, stagingDir } = req;
  const parsed = parseArtifact(interpolate(a.GetterSource, env, node), interpolateMap(a.GetterOptions, env, node));
  const mode = a.GetterMode || 'any';
  const dest = resolveInSandbox(allocDirs, taskDirs, interpolate(a.RelativeDest || 'local/', env, node), 'artifact destination', { absolute: 'host' });
  checkRealPath(taskDirs, dest, 'artifact destination');
  const type = archiveType(parsed.namePath, parsed.archive);

  await mkdir(stagingDir, { recursive: true, mode: 0o700 });
  const staging = await mkdtemp(path.join(stagingDir, 'a-'));
  try {
    // The file to place (a download, or the user's local file), or a local directory to copy.
    let file: string;
    let owned: boolean;
    if (parsed.source.kind === 'http') {
      file = path.join(staging, 'download');
      owned = true;
      await download(parsed.source.url, file, { headers: interpolateMap(a.GetterHeaders, env, node), insecure: a.GetterInsecure, signal });
    } else {
      const local = parsed.source.relative ? path.resolve(taskDirs.root, parsed.source.path) : parsed.source.path;
      let st;
      try {
        st = await stat(local);
      } catch (err) {
        throw new Error(`${(err as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file or directory' : (err as Error).message}: ${local}`);
      }
      if (st.isDirectory()) {
        if (mode === 'file') throw new Error(`${local} is a directory; mode "file" needs a file`);
        if (parsed.checksum) throw new Error(`a checksum can only be checked on a file, and ${local} is a directory`);
        await mkdir(dest, { recursive: true });
        await cp(local, dest, { recursive: true, force: true, verbatimSymlinks: true });
        return;
      }
      file = local;
      owned = false;
    }
    signal?.throwIfAborted();
    const base = parsed.filename ?? path.posix.basename(parsed.namePath);
    if (parsed.checksum) await verifyChecksum(file, base || 'the download', parsed.checksum);

    if (mode === 'file') {
      if (type === undefined) return await placeFile(file, dest, owned);
      if (type === 'gz') {
        await mkdir(path.dirname(dest), { recursive: true });
        await clearLink(dest);
        return await gunzipFile(file, dest);
      }
      const out = path.join(staging, 'unpacked');
      await mkdir(out);
      await unpackInto(type, file, out);
      return await placeFile(await singleFile(out), dest, true);
    }

    await mkdir(dest, { recursive: true });
    if (type === 'gz') {
      const out = path.join(dest, gunzippedName(base));
      await clearLink(out);
      return await gunzipFile(file, out);
    }
    if (type !== undefined) return await unpackInto(type, file, dest);
    if (mode === 'dir') throw new Error(`mode "dir" needs an archive or a directory, and ${base || 'the source'} is a single file; use mode "file" or "any"`);
    if (base === '' || parsed.namePath.endsWith('/')) throw new Error('the URL names a directory; svc downloads files and archives only');
    await placeFile(file, path.join(dest, base), owned);
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}
