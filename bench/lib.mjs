// Helpers for bench/run.mjs: timing child processes, a dev server to measure against, an HTTP load loop,
// load-generator processes driven over IPC, percentiles, a process's memory and CPU time.
import { fork, spawn, spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { performance } from 'node:perf_hooks';

export const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

/** Wall time of `node args...` in ms, `runs` times after one unmeasured warm-up run. */
export function timeProcess(args, { runs, env }) {
  const once = () => {
    const start = performance.now();
    const result = spawnSync(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    const ms = performance.now() - start;
    if (result.status !== 0) {
      throw new Error(`node ${args.join(' ')} exited with ${result.status}: ${result.stderr.toString().trim()}`);
    }
    return ms;
  };
  once();
  return Array.from({ length: runs }, once);
}

/** The value at fraction `p` (0.99 = p99) of `values`, nearest rank; NaN for none. */
export const percentile = (values, p) => {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))];
};

/** Wall-clock ms comparable between processes (each process's performance.now() has its own origin). */
export const wallNow = () => performance.timeOrigin + performance.now();

/** Resident and peak resident memory of a process in MiB, from /proc/<pid>/status (Linux). */
export function memoryOf(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = (field) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
  return { rssMiB: kib('VmRSS') / 1024, peakMiB: kib('VmHWM') / 1024 };
}

/** CPU seconds (user + system) a process has used so far, from /proc/<pid>/stat (Linux, 100 ticks a second). */
export function cpuSecondsOf(pid) {
  // The command name (field 2) may hold spaces: count fields from the parenthesis that closes it.
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/**
 * CPU seconds a process and all its descendants have used so far: those running (found through
 * /proc/<pid>/task/<tid>/children) and those it has reaped (its cutime and cstime). Linux.
 */
export function cpuSecondsOfTree(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  let seconds = (Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14])) / 100;
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    for (const child of readFileSync(`/proc/${pid}/task/${tid}/children`, 'utf8').split(' ').filter(Boolean)) {
      try {
        seconds += cpuSecondsOfTree(Number(child));
      } catch {
        // It exited while we looked: its parent's cutime has it, or will.
      }
    }
  }
  return seconds;
}

/**
 * Forks `script` as a load generator of its own (not the server's process, not this one) and asks it to
 * do things: `ask(cmd, arg)` resolves with what the child's handler for `cmd` answered. Messages the child
 * sends by itself ({ progress }) go to `onProgress`.
 */
export function startChild(script, { args = [], onProgress = () => {} } = {}) {
  const child = fork(script, args, { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  let seq = 0;
  const waiting = new Map();
  const exited = new Promise((resolve) =>
    child.on('exit', (code) => {
      for (const w of waiting.values()) w.reject(new Error(`${script} exited with ${code}`));
      waiting.clear();
      resolve(code);
    }),
  );
  child.on('message', (m) => {
    if (m.progress !== undefined) return onProgress(m.progress);
    const w = waiting.get(m.id);
    waiting.delete(m.id);
    if (m.error) w?.reject(new Error(m.error));
    else w?.resolve(m.result);
  });
  return {
    pid: child.pid,
    ask: (cmd, arg) =>
      new Promise((resolve, reject) => {
        const id = ++seq;
        waiting.set(id, { resolve, reject });
        child.send({ id, cmd, arg });
      }),
    stop: () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      return exited;
    },
  };
}

/**
 * The child's side of startChild: answers each { id, cmd, arg } with handlers[cmd](arg), and exits with
 * its parent (a node fleet's heartbeat timers would otherwise keep it running).
 */
export function serveParent(handlers) {
  process.on('disconnect', () => process.exit(0));
  process.on('message', async ({ id, cmd, arg }) => {
    try {
      process.send({ id, result: await handlers[cmd](arg) });
    } catch (err) {
      process.send({ id, error: err?.stack ?? String(err) });
    }
  });
}

/**
 * Starts `bin/svc server -dev -port=0` (plus `args`); resolves with its address, root token, banner (once
 * it matches `waitFor`), its process id and a stop function.
 */
export function startDevServer(bin, env, { args = [], waitFor = /Root Token: / } = {}) {
  const child = spawn(process.execPath, [...(process.env.BENCH_SERVER_NODE_ARGS ? process.env.BENCH_SERVER_NODE_ARGS.split(' ') : []), bin, 'server', '-dev', '-port=0', '-log-level=warn', ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  const exited = new Promise((resolve) => child.on('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    child.stderr.on('data', (d) => (err += d));
    child.stdout.on('data', (d) => {
      out += d;
      const address = /Address: (http:\/\/\S+)/.exec(out);
      const token = /Root Token: (\S+)/.exec(out);
      if (address && token && waitFor.test(out)) {
        resolve({
          url: address[1],
          token: token[1],
          banner: out,
          pid: child.pid,
          stop: () => {
            child.kill('SIGTERM');
            return exited;
          },
        });
      }
    });
    exited.then((code) => reject(new Error(`svc server exited with ${code} before it listened:\n${out}${err}`)));
  });
}

/** One request, answering the parsed body and the headers; rejects on an HTTP error with its body. */
export function call(url, token, method, path, body, agent) {
  const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
  // No token at all for unauthenticated paths (logins): an empty one is still a token to check.
  const headers = token ? { 'x-svc-token': token } : {};
  if (payload) {
    headers['content-type'] = 'application/json';
    headers['content-length'] = String(payload.length);
  }
  return new Promise((resolve, reject) => {
    const req = http.request(new URL(path, url), { method, headers, agent }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString();
        if (res.statusCode >= 400) reject(new Error(`${method} ${path}: HTTP ${res.statusCode} ${text}`));
        else resolve({ status: res.statusCode, body: text ? JSON.parse(text) : undefined, headers: res.headers });
      });
    });
    req.on('error', reject);
    req.end(payload);
  });
}

/** One request over the given keep-alive agent; rejects on any status other than `expect`. */
async function request(agent, url, { method, path, token, body, expect }) {
  const { status } = await call(url, token, method, path, body, agent);
  if (status !== expect) throw new Error(`${method} ${path}: HTTP ${status}`);
}

/**
 * Runs `n` requests made by `make(i)`, `concurrency` at a time (1 = sequential), over keep-alive
 * connections; answers the elapsed ms.
 */
export async function load(url, n, concurrency, make) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
  let next = 0;
  const worker = async () => {
    while (next < n) await request(agent, url, make(next++));
  };
  const start = performance.now();
  await Promise.all(Array.from({ length: concurrency }, worker));
  const ms = performance.now() - start;
  agent.destroy();
  return ms;
}

/** Aligned columns, numbers right-aligned. */
export function table(headers, rows) {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => String(r[i]).length)));
  const right = headers.map((_, i) => rows.every((r) => r[i] === '' || /^\d/.test(String(r[i]))));
  const line = (cells) => cells.map((c, i) => (right[i] ? String(c).padStart(widths[i]) : String(c).padEnd(widths[i]))).join('  ').trimEnd();
  return [line(headers), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/**
 * Bundles `bench/<name>.ts` (which imports the server's modules from src/) into a fresh directory under
 * node_modules/.cache — inside the repository, so that the bundle's external packages resolve from
 * node_modules. Answers the directory (the caller removes it) and the bundle's path.
 */
export async function bundleBenchScript(name) {
  await mkdir(path.join(REPO, 'node_modules/.cache'), { recursive: true });
  const dir = await mkdtemp(path.join(REPO, `node_modules/.cache/svc-${name}-`));
  const script = path.join(dir, `${name}.mjs`);
  await build({
    entryPoints: [path.join(REPO, 'bench', `${name}.ts`)],
    outfile: script,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    absWorkingDir: REPO,
    logLevel: 'error',
  });
  return { dir, script };
}
