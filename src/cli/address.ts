/**
 * What is wrong with an -address, if anything, said before the first request: Node's URL parser says only
 * "Invalid URL" for `127.0.0.1:4646`, and takes `localhost:4646` for a URL of scheme `localhost:`.
 * No imports: the flag declarations, on every command's start-up path, use it.
 */
export function addressProblem(address: string): string | undefined {
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(address)?.[1]?.toLowerCase();
  if (scheme === undefined) return `missing scheme; try http://${address}`;
  if (scheme !== 'http' && scheme !== 'https') return `unsupported scheme "${scheme}"; use http:// or https://`;
  try {
    new URL(address);
  } catch {
    return 'not a URL; give http(s)://host:port';
  }
  return undefined;
}
