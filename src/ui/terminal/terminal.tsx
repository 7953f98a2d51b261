/**
 * A terminal on the page (xterm.js) running one exec session: what the command prints is written to
 * it as bytes, keys typed into it (Ctrl-C included) go to the command as they are, and its size follows
 * the frame it sits in, told to the command on every change. This module and xterm.js are a chunk of
 * their own, loaded when a terminal first opens, with their stylesheet.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { Terminal } from '@xterm/xterm';
import { FitAddon } from '@xterm/addon-fit';
import type { Query } from '../api.js';
import { openSession, type Session } from './exec-socket.js';

/** The terminal's stylesheet, named by the build (scripts/build-ui.mjs). */
declare const TERMINAL_STYLESHEET: string;

let stylesheet: Promise<void> | undefined;

/** Adds the stylesheet's <link> once; resolves when it has loaded (or failed: the terminal works unstyled). */
function loadStylesheet(): Promise<void> {
  stylesheet ??= new Promise((resolve) => {
    const link = document.createElement('link');
    link.rel = 'stylesheet';
    link.href = TERMINAL_STYLESHEET;
    link.onload = () => resolve();
    link.onerror = () => resolve();
    document.head.append(link);
  });
  return stylesheet;
}

type Phase = { state: 'connecting' } | { state: 'open' } | { state: 'exited'; code: number } | { state: 'failed'; reason: string };

export function TerminalSession(props: { path: string; query: Query; title: string }) {
  const frame = useRef<HTMLDivElement>(null);
  const [phase, setPhase] = useState<Phase>({ state: 'connecting' });
  const key = JSON.stringify([props.path, props.query]);

  useEffect(() => {
    let disposed = false;
    let term: Terminal | undefined;
    let session: Session | undefined;
    let observer: ResizeObserver | undefined;
    setPhase({ state: 'connecting' });
    (async () => {
      await loadStylesheet();
      if (disposed) return;
      term = new Terminal({
        cursorBlink: true,
        scrollback: 5000,
        fontFamily: 'ui-monospace, "SFMono-Regular", Menlo, monospace',
        fontSize: 13,
        theme: { background: '#15171c', foreground: '#e6e8eb', cursor: '#e6e8eb', cursorAccent: '#15171c' },
      });
      const fit = new FitAddon();
      term.loadAddon(fit);
      term.open(frame.current!);
      fit.fit();
      // xterm.js draws nothing while the terminal is out of view: bring it in (an action's opens at the page's foot).
      frame.current!.scrollIntoView({ block: 'nearest' });
      const t = term;
      session = openSession(props.path, props.query, { rows: t.rows, cols: t.cols }, {
        opened() {
          setPhase({ state: 'open' });
        },
        output(data) {
          t.write(data);
        },
        exited(code) {
          setPhase({ state: 'exited', code });
          t.options.cursorBlink = false;
        },
        failed(reason) {
          setPhase({ state: 'failed', reason });
        },
      });
      const s = session;
      t.onData((data) => s.input(data));
      t.onResize(({ rows, cols }) => s.resize(rows, cols));
      observer = new ResizeObserver(() => fit.fit());
      observer.observe(frame.current!);
      t.focus();
    })();
    return () => {
      disposed = true;
      observer?.disconnect();
      session?.close();
      term?.dispose();
    };
  }, [key]);

  return (
    <div class="terminal-session" data-testid="terminal">
      <p class="muted" data-testid="terminal-status">
        {phase.state === 'connecting' && `Connecting to ${props.title}…`}
        {phase.state === 'open' && `Connected to ${props.title}: keys go to the command, Ctrl-C included.`}
        {phase.state === 'exited' && `${props.title} exited with code ${phase.code}.`}
        {phase.state === 'failed' && `The session ended: ${phase.reason}`}
      </p>
      <div class="terminal-frame" ref={frame} />
    </div>
  );
}
