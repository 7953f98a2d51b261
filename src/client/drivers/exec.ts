/**
 * exec: the task runs in its own pid, mount, ipc and uts namespaces, chrooted into its task root (see
 * task-root.ts), and in a cgroup of its own that holds it to its `resources` (memory, CPU weight,
 * reserved cores) and to the node's pids limit. Only where the host lets us create those namespaces:
 * otherwise the driver is reported undetected with the reason, so the scheduler places no exec task
 * here and users can see why. A node without usable cgroups reports the driver unhealthy, for the same
 * reason: its tasks would run unlimited.
 */
import { execFile } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { type Driver, type DriverFingerprint, type DriverHandle, DriverStartError, type TaskStartRequest, configString, configStringList } from './driver.js';
import { launchExecutor, reattachExecutor } from './executor-handle.js';
import { logSpec } from './raw-exec.js';
import { DEFAULT_TASK_PATH, checkCommandInRoot, prepareTaskRoot } from './task-root.js';
import type { ExecProcessSpec } from '../exec/session.js';
import { ExecCommandError } from '../errors.js';
import { type NodeCgroups, nodeCgroups } from '../cgroups/node-cgroups.js';
import { prepareTaskCgroup } from './task-cgroup.js';

const run = promisify(execFile);

export interface ExecTools {
  unshare: string;
  chroot: string;
  mount: string;
  nsenter: string;
}

/** The tool's path on PATH or in the usual system directories; undefined when the host lacks it. */
function findTool(name: string): string | undefined {
  const dirs = [...(process.env.PATH ?? '').split(':'), '/usr/sbin', '/usr/bin', '/sbin', '/bin'];
  for (const dir of dirs.filter((d) => d.startsWith('/'))) {
    const p = path.join(dir, name);
    try {
      accessSync(p, constants.X_OK);
      return p;
    } catch {
      // not in this directory
    }
  }
  return undefined;
}

/** The task's working directory and environment as seen inside its root. */
function insideRoot(req: TaskStartRequest): { cwd: string; env: Record<string, string> & { PATH: string } } {
  const cwd = path.posix.resolve('/', configString(req.config, 'work_dir') ?? '/');
  // Inside the root the host's environment means nothing; the task gets its own and a usable PATH.
  return { cwd, env: { PATH: DEFAULT_TASK_PATH, ...req.env } };
}

export class ExecDriver implements Driver {
  readonly name = 'exec';
  readonly defaultKillSignal = 'SIGINT';
  readonly fsIsolation = 'chroot';
  private probe?: Promise<DriverFingerprint>;

  /**
   * `tools` overrides where unshare, chroot and mount are, `cgroups` the node's cgroups (tests use them
   * to see a host without them).
   */
  constructor(
    private readonly tools: Partial<ExecTools> = {},
    private readonly cgroups: () => NodeCgroups = nodeCgroups,
  ) {}

  /**
   * Namespaces are probed once per process: whether they can be created does not change while we run.
   * The cgroups are the node's as configured now.
   */
  async fingerprint(): Promise<DriverFingerprint> {
    this.probe ??= this.detect();
    const fp = await this.probe;
    const cgroups = this.cgroups();
    if (!fp.healthy || !cgroups.problem) return fp;
    return { ...fp, healthy: false, description: `exec driver unhealthy: tasks cannot be held to their resources: ${cgroups.problem}` };
  }

  private resolveTools(): ExecTools | string {
    const found: Partial<ExecTools> = {};
    for (const [name, pkg] of [['unshare', 'util-linux'], ['chroot', 'coreutils'], ['mount', 'util-linux'], ['nsenter', 'util-linux']] as const) {
      const p = this.tools[name] ?? findTool(name);
      if (!p) return `"${name}" (${pkg}) was not found on this host`;
      found[name] = p;
    }
    return found as ExecTools;
  }

  private async detect(): Promise<DriverFingerprint> {
    const refuse = (why: string): DriverFingerprint => ({ detected: false, healthy: false, description: `exec driver unavailable: ${why}`, attributes: {} });
    if (process.platform !== 'linux') return refuse(`it needs Linux namespaces; this host runs ${process.platform}`);
    if (process.getuid?.() !== 0) return refuse('it must run as root to create namespaces and mount the task root');
    const tools = this.resolveTools();
    if (typeof tools === 'string') return refuse(tools);
    const args = ['--fork', '--pid', '--mount', '--mount-proc', '--ipc', '--uts', 'true'];
    try {
      await run(tools.unshare, args, { timeout: 10_000 });
    } catch (err) {
      const e = err as { stderr?: string; message: string };
      const why = (e.stderr || e.message).trim();
      return refuse(`this host does not allow creating pid and mount namespaces (${tools.unshare} ${args.join(' ')}: ${why})`);
    }
    return { detected: true, healthy: true, description: 'Healthy', attributes: { 'driver.exec': '1' } };
  }

  async start(req: TaskStartRequest): Promise<DriverHandle> {
    const fp = await this.fingerprint();
    const tools = this.resolveTools();
    if (!fp.healthy || typeof tools === 'string') throw new DriverStartError(fp.description, false);
    const command = configString(req.config, 'command', true)!;
    const args = configStringList(req.config, 'args');
    const { cwd, env } = insideRoot(req);
    checkCommandInRoot(req.dirs, command, cwd, env.PATH);
    const mounts = await prepareTaskRoot(req.dirs);
    const cgroup = await prepareTaskCgroup(req, { pidsLimit: true, oomScoreAdj: 0 });
    if (!cgroup) throw new DriverStartError(fp.description, false);
    return launchExecutor(req.stateDir, {
      taskName: req.taskName,
      command,
      args,
      cwd,
      env,
      logs: logSpec(req),
      isolation: { ...tools, root: req.dirs.root, mounts },
      cgroup: cgroup.spec,
    }, cgroup);
  }

  /**
   * The command joins the task's namespaces (those of its init, whose host pid the handle has) and its
   * chroot, where the task root's mounts exist. The same small script as the task's start sets the
   * working directory.
   */
  execCommand(req: TaskStartRequest, handle: DriverHandle, command: string[]): ExecProcessSpec {
    const tools = this.resolveTools();
    if (typeof tools === 'string') throw new ExecCommandError(`exec driver unavailable: ${tools}`);
    const { cwd, env } = insideRoot(req);
    try {
      checkCommandInRoot(req.dirs, command[0], cwd, env.PATH);
    } catch (err) {
      throw new ExecCommandError((err as Error).message.replace(/^failed to launch command with executor: /, ''));
    }
    const script = 'cd -- "$1" || exit 126; shift; exec "$@"';
    return {
      file: tools.nsenter,
      args: ['-t', String(handle.pid), '--mount', '--pid', '--ipc', '--uts', '--', tools.chroot, req.dirs.root, '/bin/sh', '-c', script, 'sh', cwd, ...command],
      cwd: '/',
      env,
    };
  }

  async recover(req: TaskStartRequest): Promise<DriverHandle | undefined> {
    return reattachExecutor(req.stateDir);
  }
}
