/**
 * The exec driver's task root: the task directory, with the host's system directories bound read-only
 * into it, a few device nodes, a fresh /proc and the group's alloc/ directory. The bind mounts are made
 * inside the task's private mount namespace, so the host sees only the empty mount points.
 */
import { existsSync, lstatSync, readlinkSync, statSync } from 'node:fs';
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { TaskDirs } from '../task-dir.js';
import { DriverStartError } from './driver.js';

/** The host directories a task sees (read-only): what a dynamically linked program and a shell need. */
const HOST_DIRS = ['/bin', '/sbin', '/lib', '/lib32', '/lib64', '/usr', '/etc'];
const DEVICES = ['null', 'zero', 'full', 'random', 'urandom'];
/** The PATH an exec task gets when its env does not set one. */
export const DEFAULT_TASK_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';

/** Creates the mount points on the host and returns the `mount` argument lists that fill them. */
export async function prepareTaskRoot(dirs: TaskDirs): Promise<string[][]> {
  const root = dirs.root;
  const mounts: string[][] = [];
  for (const host of HOST_DIRS.filter((d) => existsSync(d))) {
    const inRoot = path.join(root, host);
    const st = lstatSync(host);
    if (st.isSymbolicLink()) {
      // Merged-/usr hosts: /bin -> usr/bin. The same link inside the root points into the bound /usr.
      if (!existsSync(inRoot) && !isLink(inRoot)) await symlink(readlinkSync(host), inRoot);
      continue;
    }
    await mkdir(inRoot, { recursive: true });
    mounts.push(['--bind', host, inRoot], ['-o', 'remount,bind,ro', inRoot]);
  }
  await mkdir(path.join(root, 'dev'), { recursive: true });
  for (const dev of DEVICES) {
    const node = path.join(root, 'dev', dev);
    if (!existsSync(node)) await writeFile(node, '');
    mounts.push(['--bind', `/dev/${dev}`, node]);
  }
  await mkdir(path.join(root, 'proc'), { recursive: true });
  mounts.push(['-t', 'proc', '-o', 'nosuid,nodev,noexec', 'proc', path.join(root, 'proc')]);
  await mkdir(path.join(root, 'alloc'), { recursive: true });
  mounts.push(['--bind', dirs.shared, path.join(root, 'alloc')]);
  return mounts;
}

function isLink(p: string): boolean {
  try {
    return lstatSync(p).isSymbolicLink();
  } catch {
    return false;
  }
}

/** Where a path inside the task root is on the host, before the mounts exist. */
function hostPathOf(dirs: TaskDirs, inside: string): string {
  const p = path.posix.normalize(inside);
  if (HOST_DIRS.some((d) => p === d || p.startsWith(`${d}/`))) return p;
  if (p === '/alloc' || p.startsWith('/alloc/')) return path.join(dirs.shared, p.slice('/alloc'.length));
  return path.join(dirs.root, p);
}

function isFile(p: string): boolean {
  try {
    return statSync(p).isFile();
  } catch {
    return false;
  }
}

/**
 * Checks that the command exists inside the task root, so that a typo is a driver failure at start
 * rather than a chroot error in the task's log.
 */
export function checkCommandInRoot(dirs: TaskDirs, command: string, cwd: string, envPath: string): void {
  if (command.includes('/')) {
    const inside = path.posix.resolve(cwd, command);
    if (!isFile(hostPathOf(dirs, inside))) throw new DriverStartError(`failed to launch command with executor: file ${command} not found under path ${dirs.root}`, false);
    return;
  }
  const found = envPath.split(':').some((dir) => dir.startsWith('/') && isFile(hostPathOf(dirs, path.posix.join(dir, command))));
  if (!found) throw new DriverStartError(`failed to launch command with executor: exec: "${command}": executable file not found in $PATH`, false);
}
