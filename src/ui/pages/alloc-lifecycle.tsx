/**
 * What a token with alloc-lifecycle may do to an allocation, as Nomad's UI offers it: restart its
 * running tasks, restart all of them (those already done too), restart one task, stop it (the
 * scheduler places a replacement where the job still wants one), and send a signal to one task or
 * all. Each asks in the page before it acts, and says what the server answered.
 */
import { useState } from 'preact/hooks';
import { call } from '../api.js';
import { ConfirmButton } from '../confirm.js';

/** The node's lifecycle calls (restart, signal), which the server passes to the node running the allocation. */
const clientPath = (id: string, call: 'restart' | 'signal') => `/v1/client/allocation/${encodeURIComponent(id)}/${call}`;

export const restartAlloc = (id: string, body: { TaskName?: string; AllTasks?: boolean }) => call(clientPath(id, 'restart'), { method: 'POST', body });

/** Signals a task is commonly sent, SIGTERM's and SIGKILL's ending included; the server accepts any SIG name. */
const SIGNALS = ['SIGHUP', 'SIGINT', 'SIGQUIT', 'SIGUSR1', 'SIGUSR2', 'SIGTERM', 'SIGKILL', 'SIGWINCH', 'SIGCONT', 'SIGSTOP'];

/** The allocation's controls: restart, restart all tasks, stop, and a signal to send. */
export function AllocControls(props: { id: string; tasks: string[]; running: boolean }) {
  const [signal, setSignal] = useState('SIGHUP');
  const [task, setTask] = useState('');
  if (!props.running) return <p class="muted">The allocation is not running: there is nothing to restart, stop or signal.</p>;
  return (
    <div class="toolbar" data-testid="alloc-controls">
      <ConfirmButton
        testid="restart"
        label="Restart"
        question="Restart the allocation's running tasks?"
        confirmLabel="Yes, restart"
        done="Restart requested."
        onConfirm={() => restartAlloc(props.id, {})}
      />
      <ConfirmButton
        testid="restart-all"
        label="Restart all tasks"
        question="Restart every task of the allocation, those already finished too?"
        confirmLabel="Yes, restart all"
        done="Restart of all tasks requested."
        onConfirm={() => restartAlloc(props.id, { AllTasks: true })}
      />
      <ConfirmButton
        testid="stop"
        danger
        label="Stop"
        question="Stop the allocation? The scheduler places a replacement if the job still wants one."
        confirmLabel="Yes, stop"
        done="Stop requested."
        onConfirm={() => call(`/v1/allocation/${encodeURIComponent(props.id)}/stop`, { method: 'POST' })}
      />
      <span class="signal">
        <select value={signal} aria-label="Signal" data-testid="signal-name" onChange={(e) => setSignal((e.target as HTMLSelectElement).value)}>
          {SIGNALS.map((s) => (
            <option key={s} value={s}>
              {s}
            </option>
          ))}
        </select>{' '}
        <select value={task} aria-label="Task to signal" data-testid="signal-task" onChange={(e) => setTask((e.target as HTMLSelectElement).value)}>
          <option value="">all tasks</option>
          {props.tasks.map((t) => (
            <option key={t} value={t}>
              {t}
            </option>
          ))}
        </select>{' '}
        <ConfirmButton
          key={`${signal}/${task}`}
          testid="signal"
          label="Send signal"
          question={`Send ${signal} to ${task ? `task ${task}` : 'all tasks'}?`}
          confirmLabel={`Yes, send ${signal}`}
          done={`${signal} sent.`}
          onConfirm={() => call(clientPath(props.id, 'signal'), { method: 'POST', body: task ? { Signal: signal, Task: task } : { Signal: signal } })}
        />
      </span>
    </div>
  );
}
