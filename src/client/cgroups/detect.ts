/**
 * Which cgroups this host gives the node, read from the kernel's own account of the process: the
 * mounts (/proc/self/mountinfo) and the cgroup the node runs in (/proc/self/cgroup). A host with v1
 * controllers mounted uses them (a hybrid host's cgroup2 mount then holds no controller we need, as
 * here); one with only the unified hierarchy uses v2.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';

/** The controllers a task cgroup uses. */
export const TASK_CONTROLLERS = ['cpu', 'cpuacct', 'cpuset', 'memory', 'pids', 'freezer'] as const;

export interface V1Mount {
  /** where the controller's hierarchy is mounted */
  mount: string;
  /** the node's own cgroup directory in that hierarchy */
  self: string;
}

export interface CgroupDetection {
  version: 0 | 1 | 2;
  /** where the hierarchies are: the directory holding the v1 controller mounts, or the cgroup2 mount */
  mountpoint: string;
  /** v1: controller name -> its mount and the node's directory in it */
  v1: Map<string, V1Mount>;
  /** v2: the node's own cgroup directory in the unified hierarchy */
  v2Self?: string;
  v2Mount?: string;
  /** why no cgroup is usable, for the driver's health description */
  problem?: string;
}

interface MountEntry {
  root: string;
  mountpoint: string;
  fstype: string;
  superOptions: string[];
}

/** mountinfo escapes space, tab, newline and backslash as octal. */
function unescape(field: string): string {
  return field.replace(/\\([0-7]{3})/g, (_, oct: string) => String.fromCharCode(parseInt(oct, 8)));
}

export function parseMountinfo(text: string): MountEntry[] {
  const out: MountEntry[] = [];
  for (const line of text.split('\n').filter(Boolean)) {
    const fields = line.split(' ');
    const sep = fields.indexOf('-');
    if (sep < 0) continue;
    out.push({ root: unescape(fields[3]), mountpoint: unescape(fields[4]), fstype: fields[sep + 1], superOptions: (fields[sep + 3] ?? '').split(',') });
  }
  return out;
}

/** /proc/self/cgroup: `hierarchy-id:controllers:path`, the unified hierarchy with empty controllers. */
export function parseProcCgroup(text: string): { v1: Map<string, string>; v2?: string } {
  const v1 = new Map<string, string>();
  let v2: string | undefined;
  for (const line of text.split('\n').filter(Boolean)) {
    const first = line.indexOf(':');
    const second = line.indexOf(':', first + 1);
    const controllers = line.slice(first + 1, second);
    const p = line.slice(second + 1);
    if (controllers === '') v2 = p;
    else for (const c of controllers.split(',')) v1.set(c, p);
  }
  return { v1, v2 };
}

/**
 * The node's directory in a hierarchy: its cgroup path taken relative to the mount's root (a container
 * sees its own cgroup as the root of the mount, or as a path below it).
 */
function selfDir(mount: MountEntry, cgroupPath: string): string {
  const root = mount.root === '/' ? '' : mount.root;
  const rel = root && (cgroupPath === root || cgroupPath.startsWith(`${root}/`)) ? cgroupPath.slice(root.length) : cgroupPath;
  return path.join(mount.mountpoint, rel);
}

export function detectFrom(mountinfo: string, procCgroup: string): CgroupDetection {
  const mounts = parseMountinfo(mountinfo);
  const own = parseProcCgroup(procCgroup);
  const v1 = new Map<string, V1Mount>();
  for (const m of mounts.filter((x) => x.fstype === 'cgroup')) {
    for (const c of TASK_CONTROLLERS) {
      const p = own.v1.get(c);
      if (m.superOptions.includes(c) && p !== undefined && !v1.has(c)) v1.set(c, { mount: m.mountpoint, self: selfDir(m, p) });
    }
  }
  if (v1.size > 0) {
    const missing = TASK_CONTROLLERS.filter((c) => !v1.has(c));
    const anyMount = [...v1.values()][0].mount;
    return {
      version: 1,
      mountpoint: path.dirname(anyMount),
      v1,
      problem: missing.length ? `cgroup v1 controllers not mounted: ${missing.join(', ')}` : undefined,
    };
  }
  const unified = mounts.find((m) => m.fstype === 'cgroup2');
  if (unified && own.v2 !== undefined) {
    return { version: 2, mountpoint: unified.mountpoint, v1, v2Mount: unified.mountpoint, v2Self: selfDir(unified, own.v2) };
  }
  return { version: 0, mountpoint: '', v1, problem: 'no cgroup hierarchy is mounted (neither cgroup v1 controllers nor cgroup2)' };
}

export function detectCgroups(): CgroupDetection {
  if (process.platform !== 'linux') return { version: 0, mountpoint: '', v1: new Map(), problem: `cgroups need Linux; this host runs ${process.platform}` };
  try {
    return detectFrom(readFileSync('/proc/self/mountinfo', 'utf8'), readFileSync('/proc/self/cgroup', 'utf8'));
  } catch (err) {
    return { version: 0, mountpoint: '', v1: new Map(), problem: `reading the process's cgroups: ${(err as Error).message}` };
  }
}
