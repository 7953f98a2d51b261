/**
 * The token the UI calls the API with. Kept in this tab's session storage only: gone when the tab
 * closes, never in a cookie (a cookie would ride along on requests the page did not make) and never in
 * an address (addresses end up in history, logs and referrers).
 */
const KEY = 'svc.token';

type Listener = () => void;
const listeners = new Set<Listener>();

export function currentToken(): string | undefined {
  return sessionStorage.getItem(KEY) ?? undefined;
}

export function setToken(secret: string | undefined): void {
  if (secret) sessionStorage.setItem(KEY, secret);
  else sessionStorage.removeItem(KEY);
  for (const listener of listeners) listener();
}

export function onTokenChange(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
