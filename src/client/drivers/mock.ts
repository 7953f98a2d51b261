/**
 * mock: a driver without processes, for tests and benchmarks. Its config uses the names of Nomad's
 * mock_driver: `run_for` (0: until killed), `exit_code`, `exit_signal`, `exit_err_msg`, `start_error`,
 * `start_error_recoverable`, `start_block_for` and `kill_after`.
 */
import path from 'node:path';
import { mkdir } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseDurationNs } from '../../scheduler/structs/duration.js';
import { readJsonIfExists, writeJsonAtomic } from '../atomic-file.js';
import { type Driver, DriverConfigError, type DriverFingerprint, type DriverHandle, DriverStartError, type ExitResult, type TaskStartRequest } from './driver.js';
import { signalNumber } from './signals.js';
import type { ExecProcessSpec } from '../exec/session.js';
import { ExecCommandError } from '../errors.js';

interface MockConfig {
  runForMs: number;
  exitCode: number;
  exitSignal: number;
  exitErrMsg: string;
  startError: string;
  startErrorRecoverable: boolean;
  startBlockForMs: number;
  killAfterMs: number;
}

function durationMs(config: Record<string, unknown>, key: string): number {
  const v = config[key];
  if (v === undefined || v === null || v === '') return 0;
  const ns = typeof v === 'number' ? v : typeof v === 'string' ? parseDurationNs(v) : undefined;
  if (ns === undefined || ns < 0) throw new DriverConfigError(`config "${key}" must be a duration such as "10s"`);
  return ns / 1e6;
}

function integer(config: Record<string, unknown>, key: string): number {
  const v = config[key] ?? 0;
  const n = typeof v === 'string' ? Number(v) : v;
  if (typeof n !== 'number' || !Number.isInteger(n)) throw new DriverConfigError(`config "${key}" must be an integer`);
  return n;
}

function parseConfig(c: Record<string, unknown>): MockConfig {
  return {
    runForMs: durationMs(c, 'run_for'),
    exitCode: integer(c, 'exit_code'),
    exitSignal: integer(c, 'exit_signal'),
    exitErrMsg: typeof c.exit_err_msg === 'string' ? c.exit_err_msg : '',
    startError: typeof c.start_error === 'string' ? c.start_error : '',
    startErrorRecoverable: c.start_error_recoverable === true,
    startBlockForMs: durationMs(c, 'start_block_for'),
    killAfterMs: durationMs(c, 'kill_after'),
  };
}

class MockHandle implements DriverHandle {
  readonly pid = 0;
  private readonly done: Promise<ExitResult>;
  private finish!: (r: ExitResult) => void;
  private timers: NodeJS.Timeout[] = [];

  constructor(
    private readonly cfg: MockConfig,
    startedAtMs: number,
  ) {
    this.done = new Promise((resolve) => (this.finish = resolve));
    if (cfg.runForMs > 0) {
      const left = Math.max(0, startedAtMs + cfg.runForMs - Date.now());
      const err = cfg.exitErrMsg || undefined;
      this.after(left, { exitCode: cfg.exitCode, signal: cfg.exitSignal, oomKilled: false, err });
    }
  }

  private after(ms: number, result: ExitResult): void {
    this.timers.push(
      setTimeout(() => {
        this.release();
        this.finish(result);
      }, ms),
    );
  }

  wait(): Promise<ExitResult> {
    return this.done;
  }

  async signal(signal: string): Promise<void> {
    signalNumber(signal);
  }

  /** Exits `kill_after` after the signal, or is "SIGKILLed" at the timeout if that is sooner. */
  async kill(signal: string, timeoutMs: number): Promise<void> {
    const graceful = this.cfg.killAfterMs <= timeoutMs;
    const sig = graceful ? signalNumber(signal) : signalNumber('SIGKILL');
    this.after(Math.min(this.cfg.killAfterMs, timeoutMs), { exitCode: 128 + sig, signal: sig, oomKilled: false });
    await this.done;
  }

  release(): void {
    for (const t of this.timers) clearTimeout(t);
    this.timers = [];
  }
}

export class MockDriver implements Driver {
  readonly name = 'mock';
  readonly defaultKillSignal = 'SIGINT';
  readonly fsIsolation = 'none';

  async fingerprint(): Promise<DriverFingerprint> {
    return { detected: true, healthy: true, description: 'Healthy', attributes: { 'driver.mock': '1' } };
  }

  async start(req: TaskStartRequest): Promise<DriverHandle> {
    const cfg = parseConfig(req.config);
    if (cfg.startBlockForMs > 0) await sleep(cfg.startBlockForMs);
    if (cfg.startError) throw new DriverStartError(cfg.startError, cfg.startErrorRecoverable);
    const startedAtMs = Date.now();
    await mkdir(req.stateDir, { recursive: true, mode: 0o700 });
    // What a restarted server needs to play the rest of the task's run.
    writeJsonAtomic(path.join(req.stateDir, 'mock.json'), { startedAtMs });
    return new MockHandle(cfg, startedAtMs);
  }

  async recover(req: TaskStartRequest): Promise<DriverHandle | undefined> {
    const saved = readJsonIfExists<{ startedAtMs: number }>(path.join(req.stateDir, 'mock.json'));
    return saved && new MockHandle(parseConfig(req.config), saved.startedAtMs);
  }

  execCommand(): ExecProcessSpec {
    throw new ExecCommandError('the mock driver runs no process: there is nothing to exec into');
  }
}
