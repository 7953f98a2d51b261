/**
 * A task's stdout or stderr as it is written: GET /v1/client/fs/logs/:alloc?follow=true&plain=true
 * read as a stream, decoded as UTF-8 (a character split across two chunks stays whole), cleared of the
 * terminal's control sequences (terminal-text.ts) and appended to the page as text nodes, so whatever
 * the task prints is shown, never interpreted. From the start of the log, or its last bytes; following
 * what the task writes next, or only what it has written so far; the oldest text goes once the view
 * holds more than it can keep smoothly. TaskLogs adds the choices: the task, stdout or stderr, where to
 * start, and whether to follow.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { open } from '../api.js';
import { TerminalText } from '../terminal-text.js';
import { TaskSelect } from './task-select.js';

const TAIL_BYTES = 64 * 1024;
const KEEP_CHARS = 2 * 1024 * 1024;

type Phase = 'connecting' | 'streaming' | 'ended' | 'failed';

export type LogType = 'stdout' | 'stderr';
export type LogOrigin = 'start' | 'end';

export function LogView(props: { allocId: string; task: string; type: LogType; origin: LogOrigin; follow: boolean }) {
  const pre = useRef<HTMLPreElement>(null);
  const [phase, setPhase] = useState<Phase>('connecting');
  const [error, setError] = useState<string | undefined>();

  useEffect(() => {
    const target = pre.current!;
    target.textContent = '';
    setPhase('connecting');
    setError(undefined);
    const stop = new AbortController();
    let held = 0;
    const append = (text: string) => {
      if (text === '') return;
      const follow = target.scrollTop + target.clientHeight >= target.scrollHeight - 4;
      target.append(document.createTextNode(text));
      held += text.length;
      while (held > KEEP_CHARS && target.firstChild) {
        held -= target.firstChild.textContent?.length ?? 0;
        target.firstChild.remove();
      }
      if (follow) target.scrollTop = target.scrollHeight;
    };
    (async () => {
      try {
        const res = await open(`/v1/client/fs/logs/${encodeURIComponent(props.allocId)}`, {
          query: { task: props.task, type: props.type, follow: String(props.follow), plain: 'true', origin: props.origin, offset: props.origin === 'end' ? String(TAIL_BYTES) : '0' },
          signal: stop.signal,
        });
        setPhase('streaming');
        const reader = res.body!.getReader();
        const decoder = new TextDecoder();
        const terminal = new TerminalText();
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          append(terminal.push(decoder.decode(value, { stream: true })));
        }
        append(terminal.push(decoder.decode()) + terminal.flush());
        setPhase('ended');
      } catch (err) {
        if (stop.signal.aborted) return;
        setError((err as Error).message);
        setPhase('failed');
      }
    })();
    return () => stop.abort();
  }, [props.allocId, props.task, props.type, props.origin, props.follow]);

  return (
    <div class="logs">
      <pre ref={pre} class="log" data-testid="log" aria-live="polite" />
      <p class="muted" data-testid="log-phase">
        {phase === 'connecting' && 'Connecting…'}
        {phase === 'streaming' && 'Streaming: new lines appear as the task writes them.'}
        {phase === 'ended' && (props.follow ? 'End of the log: the task has finished.' : 'End of the log as it was when read: turn on Follow to see what the task writes next.')}
        {phase === 'failed' && `The log could not be read: ${error}`}
      </p>
    </div>
  );
}

/** A segmented choice: one button per option, the chosen one pressed. */
function Choice<T extends string>(props: { options: ReadonlyArray<readonly [T, string]>; value: T; onChange(value: T): void; testid: string }) {
  return (
    <span class="segmented" data-testid={props.testid}>
      {props.options.map(([value, label]) => (
        <button key={value} type="button" class={value === props.value ? 'active' : undefined} aria-pressed={value === props.value} onClick={() => props.onChange(value)}>
          {label}
        </button>
      ))}
    </span>
  );
}

/** The log of one of `tasks`, with the choices of which log, from where, and whether to follow it. */
export function TaskLogs(props: { allocId: string; tasks: string[] }) {
  const [task, setTask] = useState<string | undefined>();
  const [type, setType] = useState<LogType>('stdout');
  const [origin, setOrigin] = useState<LogOrigin>('start');
  const [follow, setFollow] = useState(true);
  const shown = task && props.tasks.includes(task) ? task : props.tasks[0];
  if (!shown) return <p class="muted">No task has started yet.</p>;
  return (
    <>
      <div class="toolbar">
        <TaskSelect tasks={props.tasks} value={shown} testid="log-task" onChange={setTask} />
        <Choice<LogType> testid="log-type" options={[['stdout', 'stdout'], ['stderr', 'stderr']] as const} value={type} onChange={setType} />
        <Choice<LogOrigin> testid="log-origin" options={[['start', 'From the start'], ['end', 'Tail']] as const} value={origin} onChange={setOrigin} />
        <label>
          <input type="checkbox" checked={follow} data-testid="log-follow" onChange={(e) => setFollow((e.target as HTMLInputElement).checked)} /> Follow
        </label>
      </div>
      <LogView allocId={props.allocId} task={shown} type={type} origin={origin} follow={follow} />
    </>
  );
}
