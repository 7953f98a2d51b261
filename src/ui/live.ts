/**
 * A view's data kept current with blocking queries: one request in flight per view, each asking for
 * the state past the index it last saw (`?index=N&wait=…`), so the server answers when something changed
 * or the wait is up, and an idle page costs a request every few minutes rather than a poll a second.
 * A refused or malformed request is not retried (it would fail the same way); a lost connection or a
 * server error is, after a pause that doubles up to half a minute.
 */
import { useEffect, useState } from 'preact/hooks';
import { call, ApiError, type Answer, type Query } from './api.js';
import { currentToken, onTokenChange } from './token.js';

export interface Live<T> {
  data?: T;
  error?: ApiError | Error;
  index: number;
  nextToken?: string;
}

const WAIT = '300s';
const MAX_PAUSE_MS = 30_000;

function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

const retryable = (err: unknown) => !(err instanceof ApiError) || err.status >= 500 || err.status === 429;

/** Follows `path` with `query` until the view goes or they change; undefined `path` follows nothing. */
export function useLive<T>(path: string | undefined, query: Query = {}): Live<T> {
  const [state, setState] = useState<Live<T>>({ index: 0 });
  const [token, setTokenState] = useState(currentToken());
  useEffect(() => onTokenChange(() => setTokenState(currentToken())), []);
  const key = JSON.stringify([path, query, token]);
  useEffect(() => {
    setState({ index: 0 });
    if (!path) return;
    const stop = new AbortController();
    const { signal } = stop;
    (async () => {
      let index = 0;
      let failures = 0;
      while (!signal.aborted) {
        let answer: Answer<T>;
        try {
          answer = await call<T>(path, { query: index > 0 ? { ...query, index: String(index), wait: WAIT } : query, signal });
        } catch (err) {
          if (signal.aborted) return;
          setState((s) => ({ ...s, error: err as Error }));
          if (!retryable(err)) return;
          failures++;
          await pause(Math.min(MAX_PAUSE_MS, 500 * 2 ** failures), signal);
          continue;
        }
        if (signal.aborted) return;
        failures = 0;
        const changed = index === 0 || answer.index !== index;
        if (changed) setState({ data: answer.data, index: answer.index, nextToken: answer.nextToken });
        // An index that went back (a restore) starts over; one that did not move means the wait ran out.
        const next = answer.index < index ? 0 : answer.index;
        // An endpoint answering at once with no index would otherwise be asked again at once, forever.
        if (next === 0) await pause(MAX_PAUSE_MS, signal);
        index = next;
      }
    })();
    return () => stop.abort();
  }, [key]);
  return state;
}
