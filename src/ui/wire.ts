/** How the public API spells what the pages send and read: a job's paths, and bytes as base64. */

/** A job's API path (`suffix` such as '/versions'); the namespace goes in the query. */
export const jobPath = (id: string, suffix = '') => `/v1/job/${encodeURIComponent(id)}${suffix}`;

/** Bytes, or text as UTF-8, in the standard padded base64 Go decodes a []byte from. */
export function base64(data: Uint8Array | string): string {
  const bytes = typeof data === 'string' ? new TextEncoder().encode(data) : data;
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary);
}

/** The bytes a base64 []byte holds. */
export function fromBase64(text: string): Uint8Array {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}
