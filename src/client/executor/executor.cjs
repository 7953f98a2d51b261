'use strict';
/*
 * The executor: one small process per running task, so that tasks outlive the server that started them.
 *
 *   node executor.cjs <spec.json>          runs the task, copies its output into rotated log files,
 *                                          and records how it ended in an exit file
 *   node executor.cjs --init <spec.json>   pid 1 of the exec driver's namespaces: mounts the task root,
 *                                          runs the task chrooted into it, and records how it ended
 *
 * The server starts it detached (its own session), so neither a server crash nor a signal to the
 * server's process group reaches it. Everything the server needs to find the task again lives in files
 * named by the spec: the state file (pids and their start times, to tell a live process from a reused
 * pid) and the exit file (written atomically once, then the executor exits).
 *
 * Plain CommonJS with no dependencies: it must run with `process.execPath` both from the source tree and
 * from dist/, without a build step or a TypeScript loader.
 */
const fs = require('node:fs');
const path = require('node:path');
const { spawn, spawnSync } = require('node:child_process');
const { constants } = require('node:os');

/** Signals passed on to the task. SIGKILL and SIGSTOP cannot be caught, so the server sends those itself. */
const FORWARDED = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGQUIT', 'SIGUSR1', 'SIGUSR2', 'SIGWINCH', 'SIGALRM', 'SIGCONT'];

/**
 * Puts the task into its cgroup before it runs: this shell is the process that becomes the task (it
 * execs the command, keeping its pid), so it writes its own pid to each cgroup.procs file, sets the
 * task's oom_score_adj, and only then execs. Nothing of the task runs outside the cgroup, not even for
 * an instant, and every process it forks is born inside. The executor itself stays out: its memory
 * does not count against the task's limit, and an OOM kill never takes the process that records it.
 * (The kernel reads a pid written to cgroup.procs in the writer's pid namespace, so `$$` is right
 * inside the exec driver's namespace too.)
 *
 *   sh -c JOIN_CGROUP sh <oom_score_adj> <procs file>... -- <command> <args>...
 */
const JOIN_CGROUP = [
  'adj=$1; shift',
  'while [ "$1" != -- ]; do echo $$ > "$1" || { echo "svc: could not join the task\'s cgroup ($1)" >&2; exit 125; }; shift; done',
  'shift',
  'echo "$adj" > /proc/self/oom_score_adj 2>/dev/null',
  'exec "$@"',
].join('\n');

/** The command and arguments that run `command` inside the spec's cgroup, or as it is without one. */
function inCgroup(spec, command, args) {
  if (!spec.cgroup) return [command, args];
  return ['/bin/sh', ['-c', JOIN_CGROUP, 'sh', String(spec.cgroup.oomScoreAdj), ...spec.cgroup.procsFiles, '--', command, ...args]];
}

/** The `oom_kill N` count of the cgroup's OOM counter file; undefined when the kernel keeps none. */
function oomKills(file) {
  try {
    const m = /^oom_kill (\d+)$/m.exec(fs.readFileSync(file, 'utf8'));
    return m ? Number(m[1]) : undefined;
  } catch {
    return undefined;
  }
}

function cgroupPids(procsFiles) {
  const pids = new Set();
  for (const f of procsFiles) {
    try {
      for (const line of fs.readFileSync(f, 'utf8').split('\n')) if (line) pids.add(Number(line));
    } catch {
      // the directory is gone already
    }
  }
  return [...pids];
}

const sleepSync = (ms) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

/**
 * Once the task has ended: reads whether the kernel OOM-killed in its cgroup, kills what the task left
 * running there (a daemon it double-forked), and removes the cgroup. The executor does it because it
 * is the one process sure to see the end, also while no node runs. Returns the OOM verdict, undefined
 * when the kernel keeps no count (the node then reads what it has, so the cgroup is left to it).
 */
function endCgroup(cgroup) {
  const kills = oomKills(cgroup.oomCounter);
  if (kills === undefined) return undefined;
  for (let i = 0; i < 200; i++) {
    const left = cgroupPids(cgroup.procsFiles);
    if (left.length === 0) break;
    for (const pid of left) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // gone meanwhile
      }
    }
    sleepSync(5);
  }
  for (const dir of cgroup.procsFiles.map((f) => path.dirname(f))) {
    // The kernel refuses while a killed process is still being reaped.
    for (let i = 0; i < 200; i++) {
      try {
        fs.rmdirSync(dir);
        break;
      } catch (err) {
        if (err.code === 'ENOENT') break;
        sleepSync(5);
      }
    }
  }
  return kills > 0;
}

/**
 * What the command names, found as spawn would find it, so that a missing command is reported as one
 * (with Go's words) rather than as the wrapping shell's exit status.
 */
function resolveCommand(command, cwd, envPath) {
  const candidates = command.includes('/') ? [path.resolve(cwd, command)] : (envPath || '').split(':').filter(Boolean).map((d) => path.resolve(cwd, d, command));
  let denied = false;
  for (const c of candidates) {
    try {
      if (!fs.statSync(c).isFile()) continue;
      fs.accessSync(c, fs.constants.X_OK);
      return c;
    } catch (err) {
      if (err.code === 'EACCES') denied = true;
    }
  }
  const err = new Error(denied ? 'permission denied' : 'not found');
  err.code = denied ? 'EACCES' : 'ENOENT';
  throw err;
}

/** How long to keep reading output after the task exits, for a grandchild that still holds the pipes. */
const DRAIN_MS = 1000;

function writeJsonAtomic(file, value) {
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, JSON.stringify(value), { mode: 0o600 });
  fs.renameSync(tmp, file);
}

/** Field 22 of /proc/<pid>/stat: when the process started, in clock ticks since boot. */
function startTime(pid) {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  } catch {
    return '';
  }
}

/** Go's exec error texts, which users of the upstream recognise. */
function launchError(err, command) {
  if (err.code === 'ENOENT') {
    return command.includes('/') ? `fork/exec ${command}: no such file or directory` : `exec: "${command}": executable file not found in $PATH`;
  }
  if (err.code === 'EACCES') return `fork/exec ${command}: permission denied`;
  return `fork/exec ${command}: ${err.message}`;
}

/** A shell's view of how a process ended: 128 + signal number when a signal ended it. */
function exitOf(code, signal) {
  if (signal) {
    const number = constants.signals[signal] || 0;
    return { exitCode: 128 + number, signal: number };
  }
  return { exitCode: code === null ? 0 : code, signal: 0 };
}

/**
 * Log files as `<task>.<stream>.N`: N grows, a file holds at most maxBytes, and only the newest maxFiles
 * remain. A restarted executor continues the highest existing index.
 */
class Rotator {
  constructor(dir, base, maxFiles, maxBytes) {
    this.dir = dir;
    this.base = base;
    this.maxFiles = Math.max(1, maxFiles);
    this.maxBytes = Math.max(1, maxBytes);
    const prefix = `${base}.`;
    const indexes = fs
      .readdirSync(dir)
      .filter((n) => n.startsWith(prefix) && /^\d+$/.test(n.slice(prefix.length)))
      .map((n) => Number(n.slice(prefix.length)));
    this.index = indexes.length ? Math.max(...indexes) : 0;
    this.fd = fs.openSync(this.file(this.index), 'a', 0o644);
    this.size = fs.fstatSync(this.fd).size;
  }

  file(index) {
    return path.join(this.dir, `${this.base}.${index}`);
  }

  write(buf) {
    let rest = buf;
    while (rest.length > 0) {
      if (this.size >= this.maxBytes) this.rotate();
      const chunk = rest.subarray(0, this.maxBytes - this.size);
      fs.writeSync(this.fd, chunk);
      this.size += chunk.length;
      rest = rest.subarray(chunk.length);
    }
  }

  rotate() {
    fs.closeSync(this.fd);
    this.index += 1;
    this.fd = fs.openSync(this.file(this.index), 'w', 0o644);
    this.size = 0;
    for (let old = this.index - this.maxFiles; old >= 0; old--) {
      try {
        fs.unlinkSync(this.file(old));
      } catch (err) {
        if (err.code === 'ENOENT') break;
        throw err;
      }
    }
  }

  close() {
    fs.closeSync(this.fd);
  }
}

function forwardSignals(target) {
  for (const sig of FORWARDED) {
    process.on(sig, () => {
      const pid = target();
      if (pid) {
        try {
          process.kill(pid, sig);
        } catch {
          // the task is already gone; its exit is on its way
        }
      }
    });
  }
}

/** Polls for a file another process writes; resolves with its JSON, or undefined when `gone()` says to stop. */
function waitForJson(file, gone) {
  return new Promise((resolve) => {
    const tick = () => {
      try {
        resolve(JSON.parse(fs.readFileSync(file, 'utf8')));
        return;
      } catch {
        if (gone()) return resolve(undefined);
      }
      setTimeout(tick, 5);
    };
    tick();
  });
}

async function runExecutor(specPath) {
  const spec = JSON.parse(fs.readFileSync(specPath, 'utf8'));
  const state = { executorPid: process.pid, executorStartTime: startTime(process.pid), taskPid: 0, taskStartTime: '', pgid: 0 };
  writeJsonAtomic(spec.stateFile, state);

  const logs = spec.logs;
  const sinks = logs.disabled
    ? null
    : {
        stdout: new Rotator(logs.dir, `${spec.taskName}.stdout`, logs.maxFiles, logs.maxFileSizeBytes),
        stderr: new Rotator(logs.dir, `${spec.taskName}.stderr`, logs.maxFiles, logs.maxFileSizeBytes),
      };
  const stdio = ['ignore', sinks ? 'pipe' : 'ignore', sinks ? 'pipe' : 'ignore'];

  const iso = spec.isolation;
  // spawn reports a missing working directory as a missing command; say which it is.
  if (!iso && !fs.existsSync(spec.cwd)) {
    writeJsonAtomic(spec.exitFile, { startError: `chdir ${spec.cwd}: no such file or directory`, exitCode: 0, signal: 0, finishedAt: new Date().toISOString() });
    process.exit(0);
  }
  let program = spec.command;
  if (!iso && spec.cgroup) {
    try {
      program = resolveCommand(spec.command, spec.cwd, spec.env.PATH);
    } catch (err) {
      writeJsonAtomic(spec.exitFile, { startError: launchError(err, spec.command), exitCode: 0, signal: 0, finishedAt: new Date().toISOString() });
      process.exit(0);
    }
  }
  const child = iso
    ? spawn(iso.unshare, ['--fork', '--pid', '--mount', '--ipc', '--uts', '--kill-child', '--', process.execPath, __filename, '--init', specPath], {
        detached: true,
        stdio,
        env: { PATH: process.env.PATH || '/usr/sbin:/usr/bin:/sbin:/bin' },
      })
    : spawn(...inCgroup(spec, program, spec.args), { cwd: spec.cwd, env: spec.env, detached: true, stdio });

  let exited = false;
  let launchFailure = '';
  const drained = [];
  if (sinks) {
    for (const name of ['stdout', 'stderr']) {
      child[name].on('data', (buf) => sinks[name].write(buf));
      drained.push(new Promise((resolve) => child[name].once('close', resolve)));
    }
  }
  const ended = new Promise((resolve) => {
    child.once('error', (err) => {
      launchFailure = launchError(err, iso ? iso.unshare : spec.command);
      resolve({ code: null, signal: null });
    });
    child.once('exit', (code, signal) => resolve({ code, signal }));
  });
  forwardSignals(() => (exited ? 0 : state.taskPid));

  child.once('spawn', async () => {
    // For exec the task is the namespace's init, a grandchild: it reports its host pid itself.
    const pid = iso ? (await waitForJson(iso.initPidFile, () => exited))?.hostPid : child.pid;
    if (!pid || exited) return;
    Object.assign(state, { taskPid: pid, taskStartTime: startTime(pid), pgid: child.pid });
    writeJsonAtomic(spec.stateFile, state);
  });

  const { code, signal } = await ended;
  exited = true;
  if (launchFailure) {
    writeJsonAtomic(spec.exitFile, { startError: launchFailure, exitCode: 0, signal: 0, finishedAt: new Date().toISOString() });
    process.exit(0);
  }
  await Promise.race([Promise.all(drained), new Promise((resolve) => setTimeout(resolve, DRAIN_MS))]);
  if (sinks) {
    sinks.stdout.close();
    sinks.stderr.close();
  }
  let result = exitOf(code, signal);
  if (iso) {
    // The init records the task's own status; without it, unshare's status stands (the init was killed).
    try {
      result = JSON.parse(fs.readFileSync(iso.initResultFile, 'utf8'));
    } catch {
      // no result file: keep unshare's status
    }
  }
  const oomKilled = spec.cgroup ? endCgroup(spec.cgroup) : undefined;
  writeJsonAtomic(spec.exitFile, { ...result, oomKilled, finishedAt: new Date().toISOString() });
  process.exit(0);
}

/** Pid 1 of the exec driver's namespaces. Its mounts are private to the namespace and vanish with it. */
function runInit(specPath) {
  const spec = JSON.parse(fs.readFileSync(specPath, 'utf8'));
  const iso = spec.isolation;
  // Failing before the task runs is a start error: the server reports it as a driver failure.
  const fail = (message) => {
    writeJsonAtomic(iso.initResultFile, { startError: message, exitCode: 0, signal: 0 });
    process.exit(1);
  };
  for (const args of iso.mounts) {
    const r = spawnSync(iso.mount, args, { encoding: 'utf8' });
    if (r.status !== 0) fail(`building the task root: mount ${args.join(' ')}: ${(r.stderr || r.error?.message || '').trim()}`);
  }
  // /proc here is still the host's, so /proc/self names this process by its host pid.
  writeJsonAtomic(iso.initPidFile, { hostPid: Number(fs.readlinkSync('/proc/self')) });

  const script = 'cd -- "$1" || exit 126; shift; exec "$@"';
  const child = spawn(...inCgroup(spec, iso.chroot, [iso.root, '/bin/sh', '-c', script, 'sh', spec.cwd, spec.command, ...spec.args]), {
    env: spec.env,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  child.once('error', (err) => fail(launchError(err, iso.chroot)));
  // As pid 1 the init only receives signals it handles, so it must pass each one on.
  forwardSignals(() => child.pid);
  child.once('exit', (code, signal) => {
    writeJsonAtomic(iso.initResultFile, exitOf(code, signal));
    process.exit(0);
  });
}

if (process.argv[2] === '--init') runInit(process.argv[3]);
else
  runExecutor(process.argv[2]).catch((err) => {
    // Setting up (reading the spec, opening the logs) failed before the task ran: a start error, left
    // where the server looks, since nothing else would ever report it.
    try {
      const spec = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
      writeJsonAtomic(spec.exitFile, { startError: `executor failed: ${err.message}`, exitCode: 0, signal: 0, finishedAt: new Date().toISOString() });
    } catch {
      // the spec itself is unreadable: the server sees the executor gone without an exit file
    }
    process.exit(1);
  });
