/**
 * The order in which a group's tasks run, as a pure function from the tasks'
 * states to what to do next:
 *
 *   prestart tasks first; main tasks once every non-sidecar prestart task has succeeded and every
 *   sidecar one runs; poststart tasks once every main task has started; sidecars stopped once the main
 *   and non-sidecar poststart tasks are dead; poststop tasks once everything else is dead.
 *   A failed task kills the rest of the group (`Sibling Task Failed`), and so does a dead leader
 *   (`Leader Task Dead`).
 */
import type { TaskStateName } from '../scheduler/structs/allocation.js';
import type { Task } from '../scheduler/structs/task.js';

export type Phase = 'prestart' | 'main' | 'poststart' | 'poststop';

export interface TaskView {
  name: string;
  phase: Phase;
  sidecar: boolean;
  leader: boolean;
  state: TaskStateName;
  failed: boolean;
  /** the task has been started by the runner (it may be dead since) */
  began: boolean;
  /** the task has been running at some point */
  everRan: boolean;
}

/** Progress through the lifecycle; persisted, so a restarted server does not start a phase twice. */
export interface LifecycleFlags {
  mainStarted: boolean;
  poststartStarted: boolean;
  poststopStarted: boolean;
  /** a failed task or a dead leader has had the rest of the group killed */
  groupKilled: boolean;
  sidecarsStopped: boolean;
  /** the allocation is being stopped: no phase starts except poststop */
  shuttingDown: boolean;
}

export type KillReason = { kind: 'sibling-failed'; sibling: string } | { kind: 'leader-dead' } | { kind: 'main-dead' };

export type LifecycleAction = { type: 'start'; tasks: string[] } | { type: 'kill'; tasks: string[]; reason: KillReason };

export function initialFlags(): LifecycleFlags {
  return { mainStarted: false, poststartStarted: false, poststopStarted: false, groupKilled: false, sidecarsStopped: false, shuttingDown: false };
}

export function phaseOf(task: Pick<Task, 'Lifecycle'>): Phase {
  const hook = task.Lifecycle?.Hook;
  return hook === 'prestart' || hook === 'poststart' || hook === 'poststop' ? hook : 'main';
}

const names = (ts: TaskView[]) => ts.map((t) => t.name);
const live = (t: TaskView) => t.state !== 'dead';

/** The actions due now, and the flags after them. Calling it again without a state change yields nothing. */
export function nextActions(tasks: TaskView[], current: LifecycleFlags): { actions: LifecycleAction[]; flags: LifecycleFlags } {
  const flags = { ...current };
  const actions: LifecycleAction[] = [];
  const inPhase = (p: Phase) => tasks.filter((t) => t.phase === p);
  const nonPoststop = tasks.filter((t) => t.phase !== 'poststop');

  if (!flags.groupKilled && !flags.shuttingDown) {
    const failed = nonPoststop.find((t) => t.state === 'dead' && t.failed);
    const leader = nonPoststop.find((t) => t.leader && t.state === 'dead');
    const cause = failed ?? leader;
    if (cause) {
      flags.groupKilled = true;
      const reason: KillReason = failed ? { kind: 'sibling-failed', sibling: failed.name } : { kind: 'leader-dead' };
      const victims = nonPoststop.filter((t) => t !== cause && live(t));
      if (victims.length) actions.push({ type: 'kill', tasks: names(victims), reason });
    }
  }

  if (!flags.groupKilled && !flags.shuttingDown) {
    const prestart = inPhase('prestart');
    const toStart = prestart.filter((t) => !t.began);
    if (toStart.length) actions.push({ type: 'start', tasks: names(toStart) });

    const prestartDone = prestart.every((t) => (t.sidecar ? t.state === 'running' : t.state === 'dead' && !t.failed));
    if (!flags.mainStarted && prestartDone) {
      flags.mainStarted = true;
      actions.push({ type: 'start', tasks: names(inPhase('main')) });
    }
    const main = inPhase('main');
    if (flags.mainStarted && !flags.poststartStarted && main.every((t) => t.everRan || t.state === 'dead')) {
      flags.poststartStarted = true;
      const poststart = inPhase('poststart');
      if (poststart.length) actions.push({ type: 'start', tasks: names(poststart) });
    }
    // Sidecars serve the main work: once it is over they are stopped.
    const work = [...main, ...inPhase('poststart').filter((t) => !t.sidecar)];
    const sidecars = tasks.filter((t) => t.sidecar && t.phase !== 'poststop' && live(t));
    if (flags.mainStarted && !flags.sidecarsStopped && work.every((t) => !live(t))) {
      flags.sidecarsStopped = true;
      if (sidecars.length) actions.push({ type: 'kill', tasks: names(sidecars), reason: { kind: 'main-dead' } });
    }
  }

  if (!flags.poststopStarted && nonPoststop.every((t) => !live(t))) {
    flags.poststopStarted = true;
    const poststop = inPhase('poststop');
    if (poststop.length) actions.push({ type: 'start', tasks: names(poststop) });
  }
  return { actions, flags };
}
