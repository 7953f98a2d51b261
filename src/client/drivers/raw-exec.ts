/**
 * raw_exec: the task is a plain host process, run by the executor with the server's user and no
 * isolation. Where the node has cgroups it runs in one of its own, as Nomad's raw_exec does on Linux:
 * for its resource usage, for a stop that takes every process it started, and for the memory and CPU
 * its `resources` block asks for; no pids limit (Nomad's raw_exec sets none).
 */
import path from 'node:path';
import { type Driver, type DriverFingerprint, type DriverHandle, type TaskStartRequest, configString, configStringList } from './driver.js';
import { type LaunchSpec, launchExecutor, reattachExecutor } from './executor-handle.js';
import type { ExecProcessSpec } from '../exec/session.js';
import { resolveCommand } from '../exec/resolve-command.js';
import { oomScoreAdj, prepareTaskCgroup } from './task-cgroup.js';

/** The executor's log settings from the task's `logs` block. */
export function logSpec(req: TaskStartRequest): LaunchSpec['logs'] {
  const c = req.logConfig;
  return { disabled: c.Disabled, dir: req.dirs.logs, maxFiles: c.MaxFiles, maxFileSizeBytes: Math.round(c.MaxFileSizeMB * 1024 * 1024) };
}

/** A relative work_dir is taken from the task directory, where the task starts by default. */
function workDir(req: TaskStartRequest): string {
  return path.resolve(req.dirs.root, configString(req.config, 'work_dir') ?? '.');
}

export class RawExecDriver implements Driver {
  readonly name = 'raw_exec';
  readonly defaultKillSignal = 'SIGINT';
  readonly fsIsolation = 'none';

  async fingerprint(): Promise<DriverFingerprint> {
    return { detected: true, healthy: true, description: 'Healthy', attributes: { 'driver.raw_exec': '1' } };
  }

  async start(req: TaskStartRequest): Promise<DriverHandle> {
    const command = configString(req.config, 'command', true)!;
    const args = configStringList(req.config, 'args');
    const cgroup = await prepareTaskCgroup(req, { pidsLimit: false, oomScoreAdj: oomScoreAdj(req.config) });
    return launchExecutor(req.stateDir, { taskName: req.taskName, command, args, cwd: workDir(req), env: req.env, logs: logSpec(req), cgroup: cgroup?.spec }, cgroup);
  }

  execCommand(req: TaskStartRequest, _handle: DriverHandle, command: string[]): ExecProcessSpec {
    const cwd = workDir(req);
    const [program, ...args] = command;
    return { file: resolveCommand(program, req.env.PATH ?? '', cwd), args, cwd, env: req.env };
  }

  async recover(req: TaskStartRequest): Promise<DriverHandle | undefined> {
    return reattachExecutor(req.stateDir);
  }
}
