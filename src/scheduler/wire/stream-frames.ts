/**
 * Nomad's StreamFrame on the wire (client/lib/streamframer in Nomad): the logs and stream endpoints
 * answer concatenated JSON objects `{"Offset":…,"Data":"<base64>","File":"…","FileEvent":"…"}`, fields in
 * Go's order, each left out when zero (Go's omitempty), so a heartbeat is `{}`. With plain=true only the
 * data bytes go out.
 *
 * What a frame means, as Nomad's streamFile sends it: `File` is the file the data came from, relative to
 * the allocation directory (`alloc/logs/web.stdout.3`); it changes when a log stream moves on to the next
 * rotated file. `Offset` is the position in `File` just after `Data` (Nomad adds the bytes read before it
 * frames them), which is where a reader would resume. `FileEvent` is "file truncated" (reading restarted
 * at 0) or "file deleted" (the file went away; a log stream continues with the next file).
 */

export const FILE_DELETED = 'file deleted';
export const FILE_TRUNCATED = 'file truncated';

/** Nomad's streamFrameSize: the most data one frame carries. */
export const FRAME_SIZE = 64 * 1024;

/** While a follow has nothing to send, a heartbeat this often keeps proxies from closing the connection. */
export const HEARTBEAT_MS = 10_000;

/** What the file readers produce; `idle` means "waiting for more", so the sender can heartbeat. */
export type StreamEvent =
  | { kind: 'data'; file: string; data: Buffer; end: number }
  | { kind: 'event'; file: string; event: typeof FILE_DELETED | typeof FILE_TRUNCATED; offset: number }
  | { kind: 'idle' };

export interface StreamFrame {
  Offset?: number;
  Data?: Buffer;
  File?: string;
  FileEvent?: string;
}

export function encodeFrame(f: StreamFrame): string {
  const out: Record<string, string | number> = {};
  if (f.Offset) out.Offset = f.Offset;
  if (f.Data && f.Data.length > 0) out.Data = f.Data.toString('base64');
  if (f.File) out.File = f.File;
  if (f.FileEvent) out.FileEvent = f.FileEvent;
  return JSON.stringify(out);
}

/**
 * Sends what a reader produces, as frames or (plain) as the bytes alone, awaiting each write so that a
 * slow client paces the reader.
 */
export async function sendEvents(events: AsyncIterable<StreamEvent>, write: (chunk: Buffer | string) => Promise<void>, plain: boolean): Promise<void> {
  let lastSent = Date.now();
  for await (const e of events) {
    if (e.kind === 'idle') {
      if (!plain && Date.now() - lastSent >= HEARTBEAT_MS) {
        await write('{}');
        lastSent = Date.now();
      }
      continue;
    }
    if (e.kind === 'data') await write(plain ? e.data : encodeFrame({ Offset: e.end, Data: e.data, File: e.file }));
    else if (!plain) await write(encodeFrame({ Offset: e.offset, File: e.file, FileEvent: e.event }));
    lastSent = Date.now();
  }
}
