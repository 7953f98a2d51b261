/**
 * A task's stdout or stderr as it is written: GET /v1/client/fs/logs/:alloc?follow=true&plain=true
 * read as a stream, decoded as UTF-8 (a character split across two chunks stays whole), cleared of the
 * terminal's control sequences (terminal-text.ts) and appended to the page as text nodes, so whatever
 * the task prints is shown, never interpreted. From the start of the log, or its last bytes; the oldest
 * text goes once the view holds more than it can keep smoothly.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { open } from '../api.js';
import { TerminalText } from '../terminal-text.js';

const TAIL_BYTES = 64 * 1024;
const KEEP_CHARS = 2 * 1024 * 1024;

type Phase = 'connecting' | 'streaming' | 'ended' | 'failed';

export function LogView(props: { allocId: string; task: string; type: 'stdout' | 'stderr'; origin: 'start' | 'end' }) {
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
          query: { task: props.task, type: props.type, follow: 'true', plain: 'true', origin: props.origin, offset: props.origin === 'end' ? String(TAIL_BYTES) : '0' },
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
  }, [props.allocId, props.task, props.type, props.origin]);

  return (
    <div class="logs">
      <pre ref={pre} class="log" data-testid="log" aria-live="polite" />
      <p class="muted" data-testid="log-phase">
        {phase === 'connecting' && 'Connecting…'}
        {phase === 'streaming' && 'Streaming: new lines appear as the task writes them.'}
        {phase === 'ended' && 'End of the log: the task has finished.'}
        {phase === 'failed' && `The log could not be read: ${error}`}
      </p>
    </div>
  );
}
