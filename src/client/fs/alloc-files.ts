/**
 * The allocation directory as `alloc fs` sees it (Nomad's AllocDir List/Stat/ReadAt): paths are relative
 * to the directory (a leading `/` too: `/alloc/logs` is `<allocDir>/alloc/logs`), and nothing outside it
 * can be reached. Tasks write into this directory, so a task can plant `..`-free symbolic links that point
 * anywhere: every path is checked after resolving links (realpath), not only as text. The runner's own
 * state (`.svc/`, see task-dir.ts) is treated as absent, and files under a task's `secrets/` can be listed
 * but not read, as in Nomad.
 */
import { lstat, open, readdir, realpath, stat } from 'node:fs/promises';
import type { BigIntStats } from 'node:fs';
import { constants } from 'node:fs';
import path from 'node:path';
import { NotFound, PermissionDenied, UserError } from '../../shared/errors.js';
import { detectContentType, SNIFF_BYTES } from './content-type.js';
import type { AllocFileInfo } from '../../scheduler/wire/alloc-fs.js';

/** The runner's state directory, at the top of the allocation directory. */
const HIDDEN = '.svc';

export interface AllocPath {
  /** the real host path */
  host: string;
  /** relative to the allocation directory, '' for the directory itself */
  rel: string;
  /** the name Nomad's Stat reports: the last element of the path as asked */
  name: string;
}

function within(root: string, p: string): string | undefined {
  const rel = path.relative(root, p);
  if (rel === '') return '';
  return rel === '..' || rel.startsWith(`..${path.sep}`) || path.isAbsolute(rel) ? undefined : rel;
}

const topLevel = (rel: string) => rel.split(path.sep)[0];

/**
 * Resolves `requested` inside the allocation directory: 400 when it leaves it (by `..` or through a link),
 * 404 when nothing is there (or it is the runner's state).
 */
export async function resolveAllocPath(allocDir: string, requested: string): Promise<AllocPath> {
  if (requested.includes('\0')) throw new UserError('path must not contain a NUL byte');
  const root = await realpath(allocDir).catch((err: NodeJS.ErrnoException) => {
    throw err.code === 'ENOENT' ? new NotFound(`the allocation directory is gone: ${path.basename(allocDir)}`) : err;
  });
  const lexical = path.resolve(root, `.${path.sep}${requested}`);
  const lexicalRel = within(root, lexical);
  if (lexicalRel === undefined) throw new UserError(`path "${requested}" escapes the allocation directory`);
  const missing = () => new NotFound(`no such file or directory in the allocation directory: "${requested}"`);
  if (topLevel(lexicalRel) === HIDDEN) throw missing();
  const name = lexicalRel === '' ? path.basename(allocDir) : path.basename(lexical);
  // The deepest part of the path that exists, resolved: a link on the way out must be refused even when
  // what lies behind it does not exist, or the answer would tell what exists outside.
  let probe = lexical;
  for (;;) {
    let real: string;
    try {
      real = await realpath(probe);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'ELOOP') throw new UserError(`path "${requested}": too many levels of symbolic links`);
      if (code !== 'ENOENT' && code !== 'ENOTDIR') throw err;
      probe = path.dirname(probe);
      continue;
    }
    const rel = within(root, real);
    if (rel === undefined) throw new UserError(`path "${requested}" resolves outside the allocation directory through a symbolic link`);
    if (topLevel(rel) === HIDDEN || probe !== lexical) throw missing();
    return { host: real, rel, name };
  }
}

/** Files under a task's `secrets/` are readable by the task only (Nomad: "Reading secret file prohibited"). */
export function refuseSecrets(p: AllocPath, requested: string): void {
  const parts = p.rel.split(path.sep);
  if (parts.length >= 2 && parts[0] !== 'alloc' && parts[1] === 'secrets') throw new PermissionDenied(`Reading secret file prohibited: ${requested}`);
}

// The set-id and sticky bits (sys/stat.h); node's fs.constants leaves them out.
const S_ISUID = 0o4000;
const S_ISGID = 0o2000;
const S_ISVTX = 0o1000;

/** Go's FileMode.String(): type letters in Go's order (d L D p S u g c t), `-` when none, then rwxrwxrwx. */
export function goFileMode(mode: number): string {
  const type = mode & constants.S_IFMT;
  let letters = '';
  if (type === constants.S_IFDIR) letters += 'd';
  if (type === constants.S_IFLNK) letters += 'L';
  if (type === constants.S_IFBLK || type === constants.S_IFCHR) letters += 'D';
  if (type === constants.S_IFIFO) letters += 'p';
  if (type === constants.S_IFSOCK) letters += 'S';
  if (mode & S_ISUID) letters += 'u';
  if (mode & S_ISGID) letters += 'g';
  if (type === constants.S_IFCHR) letters += 'c';
  if (mode & S_ISVTX) letters += 't';
  const rwx = 'rwxrwxrwx'.replace(/./g, (c, i: number) => (mode & (1 << (8 - i)) ? c : '-'));
  return (letters || '-') + rwx;
}

/** Go's RFC3339Nano in UTC: nanoseconds with trailing zeros dropped, none when whole. */
export function rfc3339Nano(ns: bigint): string {
  const seconds = ns / 1_000_000_000n;
  const frac = (ns % 1_000_000_000n).toString().padStart(9, '0').replace(/0+$/, '');
  return `${new Date(Number(seconds) * 1000).toISOString().slice(0, 19)}${frac ? `.${frac}` : ''}Z`;
}

function fileInfo(name: string, st: BigIntStats, contentType: string): AllocFileInfo {
  return {
    Name: name,
    IsDir: st.isDirectory(),
    Size: Number(st.size),
    FileMode: goFileMode(Number(st.mode)),
    ModTime: rfc3339Nano(st.mtimeNs),
    ContentType: contentType,
  };
}

async function sniff(host: string, name: string, st: BigIntStats): Promise<string> {
  if (name.endsWith('.json')) return 'application/json';
  if (st.isDirectory() || st.size === 0n) return 'application/octet-stream';
  const fh = await open(host, 'r');
  try {
    const buf = Buffer.alloc(SNIFF_BYTES);
    const { bytesRead } = await fh.read(buf, 0, SNIFF_BYTES, 0);
    return detectContentType(buf.subarray(0, bytesRead));
  } catch {
    return 'application/octet-stream'; // best effort, as Nomad's detectContentType
  } finally {
    await fh.close();
  }
}

/** Nomad's Stat: follows links (the path was resolved), sniffs the content type. */
export async function statAllocPath(p: AllocPath): Promise<AllocFileInfo> {
  const st = await stat(p.host, { bigint: true });
  return fileInfo(p.name, st, await sniff(p.host, p.name, st));
}

/** Nomad's List: the directory's entries by name, links shown as links (lstat). */
export async function listAllocPath(p: AllocPath, requested: string): Promise<AllocFileInfo[]> {
  if (!(await stat(p.host)).isDirectory()) throw new UserError(`path "${requested}" is not a directory`);
  const names = (await readdir(p.host)).filter((n) => !(p.rel === '' && n === HIDDEN)).sort();
  const out: AllocFileInfo[] = [];
  for (const name of names) {
    try {
      out.push(fileInfo(name, await lstat(path.join(p.host, name), { bigint: true }), ''));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err; // removed while listing
    }
  }
  return out;
}

/** A path to read as a file: 400 for a directory (Nomad: `file "x" is a directory`), secrets refused. */
export async function fileToRead(p: AllocPath, requested: string): Promise<void> {
  refuseSecrets(p, requested);
  if ((await stat(p.host)).isDirectory()) throw new UserError(`file "${requested}" is a directory`);
}
