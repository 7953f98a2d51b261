/**
 * Task events as Nomad records them: the type, the legacy flat fields, the snake_case `Details`, and the
 * `DisplayMessage` that `alloc status` shows.
 */
import { type TaskEvent, newTaskEvent } from '../scheduler/structs/allocation.js';
import { formatGoDuration } from '../shared/duration.js';
import type { ExitResult } from './drivers/driver.js';
import { RESTART_REASONS } from './restart-tracker.js';

export const EV = {
  received: 'Received',
  setup: 'Task Setup',
  setupFailure: 'Setup Failure',
  started: 'Started',
  terminated: 'Terminated',
  restarting: 'Restarting',
  notRestarting: 'Not Restarting',
  driverFailure: 'Driver Failure',
  killing: 'Killing',
  killed: 'Killed',
  signaling: 'Signaling',
  restartSignaled: 'Restart Signaled',
  siblingFailed: 'Sibling Task Failed',
  leaderDead: 'Leader Task Dead',
  mainDead: 'Main Tasks Dead',
  restoreFailed: 'Failed Restoring Task',
  waitingShutdownDelay: 'Waiting for shutdown delay',
  skippingShutdownDelay: 'Skipping shutdown delay',
  downloadingArtifacts: 'Downloading Artifacts',
  artifactDownloadFailed: 'Failed Artifact Download',
  hookFailed: 'Task hook failed',
} as const;

export const BUILDING_TASK_DIR = 'Building Task Directory';

export const received = (): TaskEvent => newTaskEvent(EV.received, { DisplayMessage: 'Task received by client' });

export const taskSetup = (message: string): TaskEvent => newTaskEvent(EV.setup, { Message: message, DisplayMessage: message, Details: { message } });

/** The task could not be set up (its directory, its dispatch payload), so it never ran: it fails. */
export function setupFailure(message: string): TaskEvent {
  return newTaskEvent(EV.setupFailure, { SetupError: message, FailsTask: true, DisplayMessage: message, Details: { setup_error: message, fails_task: 'true' } });
}

export const started = (): TaskEvent => newTaskEvent(EV.started, { DisplayMessage: 'Task started by client' });

export function terminated(r: ExitResult): TaskEvent {
  const parts = [`Exit Code: ${r.exitCode}`];
  if (r.signal !== 0) parts.push(`Signal: ${r.signal}`);
  if (r.err) parts.push(`Exit Message: ${JSON.stringify(r.err)}`);
  const details: Record<string, string> = { exit_code: String(r.exitCode), signal: String(r.signal), oom_killed: String(r.oomKilled) };
  if (r.err) details.exit_message = r.err;
  return newTaskEvent(EV.terminated, { ExitCode: r.exitCode, Signal: r.signal, Message: r.err ?? '', DisplayMessage: parts.join(', '), Details: details });
}

export function restarting(delayNs: number, reason: string): TaskEvent {
  const inDelay = `Task restarting in ${formatGoDuration(delayNs)}`;
  // The default reason is implied; any other is said first.
  const display = reason && reason !== RESTART_REASONS.withinPolicy ? `${reason} - ${inDelay}` : inDelay;
  return newTaskEvent(EV.restarting, {
    StartDelay: delayNs,
    RestartReason: reason,
    DisplayMessage: display,
    Details: { start_delay: String(delayNs), restart_reason: reason },
  });
}

export function notRestarting(reason: string): TaskEvent {
  return newTaskEvent(EV.notRestarting, {
    RestartReason: reason,
    FailsTask: true,
    DisplayMessage: reason || 'Task exceeded restart policy',
    Details: { restart_reason: reason, fails_task: 'true' },
  });
}

export function driverFailure(message: string): TaskEvent {
  return newTaskEvent(EV.driverFailure, { DriverError: message, DisplayMessage: message || 'Failed to start task', Details: { driver_error: message } });
}

export function killing(timeoutNs: number): TaskEvent {
  return newTaskEvent(EV.killing, {
    KillTimeout: timeoutNs,
    DisplayMessage: `Sent interrupt. Waiting ${formatGoDuration(timeoutNs)} before force killing`,
    Details: { kill_timeout: formatGoDuration(timeoutNs) },
  });
}

export const killed = (): TaskEvent => newTaskEvent(EV.killed, { DisplayMessage: 'Task successfully killed' });

export function signaling(signal: string, reason = ''): TaskEvent {
  const display = reason ? `Task being sent signal ${signal}: ${reason}` : `Task being sent signal ${signal}`;
  const details: Record<string, string> = { task_signal: signal };
  if (reason) details.task_signal_reason = reason;
  return newTaskEvent(EV.signaling, { TaskSignal: signal, TaskSignalReason: reason, DisplayMessage: display, Details: details });
}

export function restartSignaled(reason: string): TaskEvent {
  return newTaskEvent(EV.restartSignaled, { RestartReason: reason, DisplayMessage: reason || 'Task signaled to restart', Details: { restart_reason: reason } });
}

export function siblingFailed(sibling: string): TaskEvent {
  return newTaskEvent(EV.siblingFailed, { FailedSibling: sibling, DisplayMessage: `Task's sibling ${JSON.stringify(sibling)} failed`, Details: { failed_sibling: sibling } });
}

export const leaderDead = (): TaskEvent => newTaskEvent(EV.leaderDead, { DisplayMessage: 'Leader Task in Group dead' });

export const mainDead = (): TaskEvent => newTaskEvent(EV.mainDead, { DisplayMessage: 'Main tasks in the group died' });

export function restoreFailed(message: string): TaskEvent {
  return newTaskEvent(EV.restoreFailed, { Message: message, DisplayMessage: message, Details: { message } });
}

export function waitingShutdownDelay(delayNs: number): TaskEvent {
  return newTaskEvent(EV.waitingShutdownDelay, { DisplayMessage: `Waiting for shutdown_delay of ${formatGoDuration(delayNs)} before killing the task.` });
}

export const skippingShutdownDelay = (): TaskEvent =>
  newTaskEvent(EV.skippingShutdownDelay, { DisplayMessage: 'Skipping shutdown_delay before killing the task.' });

export const downloadingArtifacts = (): TaskEvent => newTaskEvent(EV.downloadingArtifacts, { DisplayMessage: 'Client is downloading artifacts' });

export function artifactDownloadFailed(message: string): TaskEvent {
  return newTaskEvent(EV.artifactDownloadFailed, { DownloadError: message, DisplayMessage: message || 'Failed to download artifacts', Details: { download_error: message } });
}

/** A prestart hook failed: `message` is `<hook>: <error>`, as Nomad words it. */
export function hookFailed(message: string): TaskEvent {
  return newTaskEvent(EV.hookFailed, { Message: message, DisplayMessage: message, Details: { message } });
}
