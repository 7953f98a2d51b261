/**
 * Archives, as go-getter recognises and unpacks them: by the name's extension (or a forced
 * `archive = "<type>"`), tar archives with the system `tar`, zip with the system `unzip`, and a single
 * gzip-compressed file with Node's zlib.
 */
import { spawn } from 'node:child_process';
import { createReadStream, createWriteStream } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';

export type ArchiveType = 'tar.gz' | 'tar.bz2' | 'tar.xz' | 'tar' | 'zip' | 'gz';

/** Extensions, longest first, and the archive type each one means. */
const EXTENSIONS: [string, ArchiveType][] = [
  ['tar.gz', 'tar.gz'],
  ['tar.bz2', 'tar.bz2'],
  ['tar.xz', 'tar.xz'],
  ['tgz', 'tar.gz'],
  ['tbz2', 'tar.bz2'],
  ['txz', 'tar.xz'],
  ['tar', 'tar'],
  ['zip', 'zip'],
  ['gz', 'gz'],
];

/** The archive type of a name, or of a forced `archive` option; undefined for a plain file. */
export function archiveType(name: string, forced: string | undefined): ArchiveType | undefined {
  if (forced !== undefined) {
    if (forced === 'false') return undefined;
    const hit = EXTENSIONS.find(([ext]) => ext === forced.replace(/^\./, ''));
    if (!hit) throw new Error(`unsupported archive type ${JSON.stringify(forced)} (svc unpacks ${EXTENSIONS.map(([e]) => e).join(', ')})`);
    return hit[1];
  }
  return EXTENSIONS.find(([ext]) => name.endsWith(`.${ext}`))?.[1];
}

/** The name of the file a `.gz` holds: the name without the extension. */
export function gunzippedName(name: string): string {
  return name.endsWith('.gz') ? name.slice(0, -3) : `${name}.out`;
}

export async function gunzipFile(src: string, dest: string, mode = 0o644): Promise<void> {
  try {
    await pipeline(createReadStream(src), createGunzip(), createWriteStream(dest, { mode }));
  } catch (err) {
    throw new Error(`unpacking gzip file: ${(err as Error).message}`);
  }
}

const INSTALL_HINT: Record<string, string> = { tar: 'tar', unzip: 'unzip' };

function run(cmd: string, args: string[], okCodes: number[]): Promise<void> {
  return new Promise((resolve, reject) => {
    let child;
    try {
      child = spawn(cmd, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    } catch (err) {
      reject(err);
      return;
    }
    let stderr = '';
    child.stderr!.on('data', (d: Buffer) => {
      if (stderr.length < 4096) stderr += d.toString();
    });
    child.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT') {
        reject(
          new Error(
            `unpacking this archive needs the "${cmd}" command, which is not installed on this node; install it (the ${INSTALL_HINT[cmd] ?? cmd} package) or set options { archive = "false" } to keep the archive as it is`,
          ),
        );
      } else reject(err);
    });
    child.on('close', (code, signal) => {
      if (code !== null && okCodes.includes(code)) resolve();
      else reject(new Error(`${cmd} ${args.join(' ')} failed (${signal ?? `exit code ${code}`}): ${stderr.trim().split('\n').slice(-3).join('; ')}`));
    });
  });
}

/** Unpacks a tar or zip archive into `dir` (which exists). */
export async function unpackInto(type: Exclude<ArchiveType, 'gz'>, file: string, dir: string): Promise<void> {
  if (type === 'zip') {
    // 1: warnings only (such as a skipped "../" path element); the files are out.
    await run('unzip', ['-o', '-q', file, '-d', dir], [0, 1]);
    return;
  }
  // GNU tar detects the compression itself; the owners in the archive mean nothing on this node.
  await run('tar', ['-x', '-f', file, '-C', dir, '--no-same-owner'], [0]);
}
