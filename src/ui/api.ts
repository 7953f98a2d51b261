/**
 * The UI's calls of the public HTTP API, on fetch: the token goes in the X-Svc-Token header of each
 * request and nowhere else. A blocking query's index and a listing's next page come from the answer's
 * headers, as the CLI reads them.
 */
import { currentToken } from './token.js';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export interface Answer<T> {
  data: T;
  /** X-Svc-Index: the index of the state the answer was built from (0 when the endpoint has none) */
  index: number;
  /** X-Svc-NextToken: where the next page of a listing starts */
  nextToken?: string;
}

export type Query = Record<string, string | undefined>;

export function url(path: string, query: Query = {}): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== '') params.set(k, v);
  const q = params.toString();
  return q ? `${path}?${q}` : path;
}

export function headers(token = currentToken(), extra: Record<string, string> = {}): Record<string, string> {
  return { ...(token ? { 'X-Svc-Token': token } : {}), ...extra };
}

/** The error's text as the server wrote it: Vault's {"errors": [...]} or Nomad's plain text. */
async function errorText(res: Response): Promise<string> {
  const text = (await res.text()).trim();
  try {
    const parsed = JSON.parse(text) as { errors?: unknown };
    if (Array.isArray(parsed.errors)) return parsed.errors.map(String).join('; ') || res.statusText;
  } catch {
    // Nomad's side answers errors as plain text.
  }
  return text || res.statusText;
}

/** Opens a request and checks its status; the body is left to the caller (JSON, or a stream). */
export async function open(path: string, opts: { method?: string; query?: Query; body?: unknown; signal?: AbortSignal; token?: string } = {}): Promise<Response> {
  const res = await fetch(url(path, opts.query), {
    method: opts.method ?? 'GET',
    headers: headers(opts.token ?? currentToken(), opts.body === undefined ? {} : { 'Content-Type': 'application/json' }),
    body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
    signal: opts.signal,
    credentials: 'omit',
    cache: 'no-store',
  });
  if (!res.ok) throw new ApiError(res.status, await errorText(res));
  return res;
}

export async function call<T>(path: string, opts: Parameters<typeof open>[1] = {}): Promise<Answer<T>> {
  const res = await open(path, opts);
  const text = await res.text();
  return {
    data: (text === '' ? undefined : JSON.parse(text)) as T,
    index: Number(res.headers.get('X-Svc-Index') ?? res.headers.get('X-Nomad-Index') ?? 0) || 0,
    nextToken: res.headers.get('X-Svc-NextToken') ?? res.headers.get('X-Nomad-NextToken') ?? undefined,
  };
}
