/**
 * A command run in one of the allocation's tasks, in a terminal on the page (the exec WebSocket the
 * CLI's `alloc exec` uses, under a pseudo-terminal): the task and the command to run are chosen first,
 * /bin/sh by default. The terminal and xterm.js are loaded only when one is opened (LazyTerminal).
 */
import type { ComponentType } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import type { Query } from '../api.js';
import type { Can } from '../acl.js';
import { TaskSelect } from './task-select.js';

type TerminalProps = { path: string; query: Query; title: string };

let loaded: ComponentType<TerminalProps> | undefined;

/** The terminal, loaded on first use as a chunk of its own with its stylesheet. */
export function LazyTerminal(props: TerminalProps) {
  const [Terminal, setTerminal] = useState(() => loaded);
  const [failed, setFailed] = useState<string | undefined>();
  useEffect(() => {
    if (!loaded)
      import('../terminal/terminal.js').then(
        (m) => setTerminal(() => (loaded = m.TerminalSession)),
        (err: Error) => setFailed(err.message),
      );
  }, []);
  if (failed) return <p class="error">The terminal could not be loaded: {failed}</p>;
  return Terminal ? <Terminal {...props} /> : <p class="muted">Loading the terminal…</p>;
}

/**
 * Whether the token may run commands in a task of this driver, as the server decides: alloc-exec, and
 * alloc-node-exec too where the driver gives the task no file system of its own (of svc's drivers, all
 * but exec), since the command then runs on the node's own.
 */
export const mayExec = (can: Can, namespace: string, driver: string | undefined) => can.job('alloc-exec', namespace) && (driver === 'exec' || can.job('alloc-node-exec', namespace));

/** Splits a command line on blanks, keeping what single or double quotes hold together. */
export function splitCommand(line: string): string[] {
  const words: string[] = [];
  const word = /"([^"]*)"|'([^']*)'|(\S+)/g;
  for (const m of line.matchAll(word)) words.push(m[1] ?? m[2] ?? m[3]);
  return words;
}

export function AllocExec(props: { allocId: string; tasks: string[]; running: boolean }) {
  const [task, setTask] = useState<string | undefined>();
  const [command, setCommand] = useState('/bin/sh');
  const [session, setSession] = useState<{ task: string; command: string[]; n: number } | undefined>();
  const chosen = task && props.tasks.includes(task) ? task : props.tasks[0];
  if (!props.running || !chosen) return <p class="muted">Commands run in a running allocation only: this one is not running.</p>;
  const words = splitCommand(command);
  const start = (e: Event) => {
    e.preventDefault();
    if (words.length > 0) setSession((s) => ({ task: chosen, command: words, n: (s?.n ?? 0) + 1 }));
  };
  return (
    <section data-testid="exec">
      <form class="toolbar" onSubmit={start}>
        <TaskSelect tasks={props.tasks} value={chosen} testid="exec-task" onChange={setTask} />
        <label>
          Command <input value={command} data-testid="exec-command" spellcheck={false} onInput={(e) => setCommand((e.target as HTMLInputElement).value)} />
        </label>
        <button type="submit" class="active" disabled={words.length === 0} data-testid="exec-open">
          {session ? 'Run again' : 'Open terminal'}
        </button>
      </form>
      {session && (
        <LazyTerminal
          key={session.n}
          title={`${session.command.join(' ')} in ${session.task}`}
          path={`/v1/client/allocation/${encodeURIComponent(props.allocId)}/exec`}
          query={{ task: session.task, command: JSON.stringify(session.command), tty: 'true' }}
        />
      )}
    </section>
  );
}
