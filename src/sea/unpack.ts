/**
 * The single executable's files on disk. Node can load native bindings, worker scripts and the task
 * executor only from files, so the executable carries svc's bundles and its runtime packages as assets
 * and writes them out on its first run, into one directory per build that every later run loads from.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import path from 'node:path';
import { getAsset } from 'node:sea';

/** What scripts/package.mjs compiles into the executable. */
export interface SeaBuild {
  version: string;
  /** of the carried files: a rebuild with other contents unpacks next to the old one */
  hash: string;
}

/** The asset that lists the others, as [path under the unpack directory, file mode] pairs. */
const FILES_ASSET = 'files.json';

export const buildId = (build: SeaBuild): string => `${build.version}-${build.hash}`;

/**
 * $XDG_CACHE_HOME/svc, else ~/.cache/svc. A relative XDG_CACHE_HOME is ignored, as the XDG Base Directory
 * specification says. os.homedir() falls back to the password database when HOME is unset.
 */
export function cacheBase(env: NodeJS.ProcessEnv): string {
  const xdg = env.XDG_CACHE_HOME;
  return path.join(xdg && path.isAbsolute(xdg) ? xdg : path.join(homedir(), '.cache'), 'svc');
}

const running = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/** Matches the temporary directories of unpacked(): `.<build id>.<pid>.<random>`. */
const TEMP = /^\.(.+)\.(\d+)\.[^.]+$/;

/** What a first run killed half-way left behind; a first run still going keeps its own. */
function removeAbandoned(base: string): void {
  for (const name of readdirSync(base)) {
    const m = TEMP.exec(name);
    if (m && !running(Number(m[2]))) rmSync(path.join(base, name), { recursive: true, force: true });
  }
}

/**
 * The directory holding this build's files, written on the first run. Files go into a temporary
 * directory beside it, each flushed to disk, and the directory is renamed into place once complete: a
 * run finds it whole or not at all, even after a power cut, and of two first runs at once one rename
 * wins and the other run uses the winner's directory. The files are written all at once: the file system
 * then commits many flushes together (a quarter of a second here for some 800 files, where one after the
 * other takes ten times that).
 */
export async function unpacked(build: SeaBuild, env: NodeJS.ProcessEnv): Promise<string> {
  const base = cacheBase(env);
  const dir = path.join(base, buildId(build));
  if (existsSync(dir)) return dir;
  let tmp = '';
  try {
    mkdirSync(base, { recursive: true, mode: 0o700 });
    removeAbandoned(base);
    tmp = mkdtempSync(path.join(base, `.${buildId(build)}.${process.pid}.`));
    const files = JSON.parse(getAsset(FILES_ASSET, 'utf8')) as Array<[string, number]>;
    for (const parent of new Set(files.map(([name]) => path.dirname(path.join(tmp, name))))) mkdirSync(parent, { recursive: true });
    await Promise.all(files.map(([name, mode]) => writeFile(path.join(tmp, name), new Uint8Array(getAsset(name)), { mode, flush: true })));
    renameSync(tmp, dir);
  } catch (err) {
    if (tmp) rmSync(tmp, { recursive: true, force: true });
    if (existsSync(dir)) return dir;
    const message = (err as Error).message;
    throw new Error(`cannot unpack svc's files into ${dir}: ${message}; set XDG_CACHE_HOME to a directory you can write to`);
  }
  return dir;
}
