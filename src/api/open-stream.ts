/** Streamed GETs of the scheduler API (files, logs, the event stream), read as they come. */
import type { ApiClient, ApiResponse } from './http/client.js';

/** Opens a streamed GET; an error status is read whole and thrown as ApiError, as the buffered calls do. */
export async function openStream(client: ApiClient, path: string, query: Record<string, string | number | boolean | undefined>, signal?: AbortSignal): Promise<ApiResponse> {
  const q = { ...query, namespace: query.namespace ?? client.config.namespace, region: client.config.region };
  const res = await client.open('GET', path, { query: q, signal });
  // Readers see a cut connection through their iteration; an 'error' emitted after they stopped listening
  // (the response destroyed when they finish) must not become an uncaught exception.
  res.on('error', () => undefined);
  const status = res.statusCode ?? 0;
  if (status < 400) return res;
  const chunks: Buffer[] = [];
  for await (const c of res) chunks.push(c as Buffer);
  throw client.apiError(status, [Buffer.concat(chunks).toString('utf8').trim()], client.url(path, q));
}
