/**
 * Addresses of the app, on the History API: every page has its own address under /ui/ (the server
 * answers index.html for each), links change it without a reload, and back and forward work.
 */
import type { ComponentChildren, JSX } from 'preact';
import { useEffect, useState } from 'preact/hooks';

export const BASE = '/ui';

export interface Location {
  /** the path below /ui, starting with '/' */
  path: string;
  query: URLSearchParams;
}

const listeners = new Set<() => void>();

function current(): Location {
  const path = location.pathname.startsWith(BASE) ? location.pathname.slice(BASE.length) || '/' : '/';
  return { path, query: new URLSearchParams(location.search) };
}

export function navigate(to: string, opts: { replace?: boolean } = {}): void {
  const target = `${BASE}${to}`;
  if (opts.replace) history.replaceState(null, '', target);
  else history.pushState(null, '', target);
  for (const listener of listeners) listener();
}

export function useLocation(): Location {
  const [loc, setLoc] = useState(current);
  useEffect(() => {
    const update = () => setLoc(current());
    listeners.add(update);
    addEventListener('popstate', update);
    return () => {
      listeners.delete(update);
      removeEventListener('popstate', update);
    };
  }, []);
  return loc;
}

/** A link within the app: a plain <a> (so it opens in a new tab as usual) that a click follows without a reload. */
export function Link(props: { to: string; children: ComponentChildren; class?: string; 'aria-current'?: JSX.AriaAttributes['aria-current'] }) {
  const onClick = (e: MouseEvent) => {
    if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    e.preventDefault();
    navigate(props.to);
  };
  return (
    <a href={`${BASE}${props.to}`} class={props.class} aria-current={props['aria-current']} onClick={onClick}>
      {props.children}
    </a>
  );
}

/** The address of `path` with the location's query changed: an empty or undefined value takes its parameter out. */
export function withQuery(path: string, loc: Location, changes: Record<string, string | undefined>): string {
  const q = new URLSearchParams(loc.query);
  for (const [k, v] of Object.entries(changes)) {
    if (v === undefined || v === '') q.delete(k);
    else q.set(k, v);
  }
  const s = q.toString();
  return `${path}${s ? `?${s}` : ''}`;
}

/** `/jobs/:id` against '/jobs/web%40default': the decoded parameters, or undefined when it does not match. */
export function match(pattern: string, path: string): Record<string, string> | undefined {
  const want = pattern.split('/').filter(Boolean);
  const got = path.split('/').filter(Boolean);
  if (want.length !== got.length) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < want.length; i++) {
    if (want[i].startsWith(':')) {
      try {
        params[want[i].slice(1)] = decodeURIComponent(got[i]);
      } catch {
        return undefined;
      }
    } else if (want[i] !== got[i]) return undefined;
  }
  return params;
}

/** The address of a job's page, as Nomad's UI writes it: its ID and namespace joined by '@'. */
export const jobAddress = (id: string, namespace: string, tab?: string) => `/jobs/${encodeURIComponent(`${id}@${namespace}`)}${tab ? `?tab=${tab}` : ''}`;

/** The ID and namespace of a job's address part (the last '@' separates them: an ID may hold one). */
export function parseJobAddress(part: string): { id: string; namespace: string } {
  const at = part.lastIndexOf('@');
  return at < 0 ? { id: part, namespace: 'default' } : { id: part.slice(0, at), namespace: part.slice(at + 1) };
}
