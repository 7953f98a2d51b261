/**
 * The secrets side's API as these pages call it: Vault's paths under /v1/, answers in Vault's envelope
 * (what a page reads is its `data`), listings as `?list=true` (Vault answers an empty listing 404, read
 * here as no keys). Reads are made once and again after the page's own writes: these endpoints do not
 * answer blocking queries, so there is nothing to wait on between.
 */
import { useEffect, useState } from 'preact/hooks';
import { ApiError, call } from '../../api.js';
import { currentToken, onTokenChange } from '../../token.js';
import { granted } from '../../acl.js';

interface Envelope<T> {
  data: T;
  auth?: { client_token: string; accessor: string; policies: string[]; lease_duration: number } | null;
  warnings?: string[] | null;
}

export async function vault<T>(method: string, path: string, body?: unknown, query: Record<string, string> = {}): Promise<Envelope<T>> {
  const { data } = await call<Envelope<T>>(`/v1/${path}`, { method, body, query });
  return data ?? ({ data: undefined } as Envelope<T>);
}

export const read = async <T>(path: string, query: Record<string, string> = {}): Promise<T> => (await vault<T>('GET', path, undefined, query)).data;

export const write = <T>(path: string, body: unknown = {}) => vault<T>('POST', path, body);

export const remove = (path: string) => vault('DELETE', path);

export interface Listing<Info = unknown> {
  keys: string[];
  key_info?: Record<string, Info>;
}

export async function list<Info = unknown>(path: string): Promise<Listing<Info>> {
  try {
    return (await read<Listing<Info>>(path, { list: 'true' })) ?? { keys: [] };
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) return { keys: [] };
    throw err;
  }
}

export interface Loaded<T> {
  data?: T;
  error?: Error;
  /** reads again (after a write of the page's own) */
  reload(): void;
  /** counts the answers had: a form keyed on it starts afresh from each, never from the one before */
  answers: number;
}

/** Reads once per key and token; `reload` reads again. */
export function useRead<T>(key: string | undefined, load: () => Promise<T>): Loaded<T> {
  const [state, setState] = useState<{ key?: string; data?: T; error?: Error; answers: number }>({ answers: 0 });
  const [round, setRound] = useState(0);
  const [token, setTokenState] = useState(currentToken());
  useEffect(() => onTokenChange(() => setTokenState(currentToken())), []);
  useEffect(() => {
    if (key === undefined) return;
    let current = true;
    load().then(
      (data) => current && setState((s) => ({ key, data, answers: s.answers + 1 })),
      (error: Error) => current && setState((s) => ({ key, error, answers: s.answers + 1 })),
    );
    return () => void (current = false);
  }, [key, round, token]);
  const mine = state.key === key ? state : { data: undefined, error: undefined };
  return { data: mine.data, error: mine.error, reload: () => setRound((r) => r + 1), answers: state.answers };
}

/** Splits "a, b,c" into its items, dropping empty ones. */
export const items = (text: string) =>
  text
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');

/** A mount path as the pages address it: without its trailing slash. */
export const mountName = (path: string) => path.replace(/\/$/, '');

/**
 * Whether a POST to a path with these capabilities may go through: the server asks `update` of an
 * object that exists and `create` of one that does not (or of a path without an update operation);
 * unknown existence takes either.
 */
export function mayWrite(caps: string[] | undefined, exists?: boolean): boolean {
  if (exists === true) return granted(caps, 'update');
  if (exists === false) return granted(caps, 'create');
  return granted(caps, 'create') || granted(caps, 'update');
}
