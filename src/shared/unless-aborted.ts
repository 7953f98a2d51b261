/** Waits for `p`, or less: until the signal aborts (a shutdown ends blocking queries at once). */
export async function unlessAborted(p: Promise<unknown>, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return;
  let onAbort: () => void = () => undefined;
  const abort = new Promise<void>((resolve) => (onAbort = resolve));
  signal.addEventListener('abort', onAbort, { once: true });
  try {
    await Promise.race([p, abort]);
  } finally {
    // One wait per blocking query: a listener left behind on a server-wide signal would pile up for the server's life.
    signal.removeEventListener('abort', onAbort);
  }
}
