/**
 * The allocation's directory, as Nomad's UI browses it: a directory's entries (GET /v1/client/fs/ls),
 * one address per directory and file (`?tab=files&path=alloc/logs`), and a file's contents shown as
 * text (control characters as their pictures, markup as written), its first 64 KiB at once and more on
 * request (readat), or saved whole (cat). The directory is read on the node, which keeps no index to
 * wait on: the view is read when opened and on Refresh.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { call, open } from '../api.js';
import { Link } from '../router.js';
import { fromNanos } from '../format.js';
import { TerminalText } from '../terminal-text.js';
import { Problem } from './problem.js';
import type { AllocFileInfo } from '../../scheduler/wire/alloc-fs.js';

const PAGE_BYTES = 64 * 1024;

const fsPath = (call: string, id: string) => `/v1/client/fs/${call}/${encodeURIComponent(id)}`;

/** The page's address for a path of the directory ('' is its root). */
export const filesAddress = (allocId: string, path: string) => `/allocations/${encodeURIComponent(allocId)}?tab=files${path ? `&path=${encodeURIComponent(path)}` : ''}`;

const join = (dir: string, name: string) => (dir ? `${dir}/${name}` : name);

function size(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

/** Whether stat's sniffed type is one a page can show as text. */
const textual = (type: string) => type === '' || type.startsWith('text/') || type.includes('json') || type.includes('xml');

function Crumbs(props: { allocId: string; path: string }) {
  const parts = props.path.split('/').filter(Boolean);
  return (
    <p class="crumbs" data-testid="fs-path">
      <Link to={filesAddress(props.allocId, '')}>allocation directory</Link>
      {parts.map((part, i) => (
        <span key={i}>
          {' / '}
          {i === parts.length - 1 ? part : <Link to={filesAddress(props.allocId, parts.slice(0, i + 1).join('/'))}>{part}</Link>}
        </span>
      ))}
    </p>
  );
}

function Directory(props: { allocId: string; path: string; entries: AllocFileInfo[] }) {
  const entries = [...props.entries].sort((a, b) => Number(b.IsDir) - Number(a.IsDir) || a.Name.localeCompare(b.Name));
  if (entries.length === 0) return <p class="muted">This directory is empty.</p>;
  return (
    <table class="list" data-testid="files">
      <thead>
        <tr>
          <th>Name</th>
          <th>Size</th>
          <th>Mode</th>
          <th>Modified</th>
        </tr>
      </thead>
      <tbody>
        {entries.map((e) => (
          <tr key={e.Name}>
            <td>
              <Link to={filesAddress(props.allocId, join(props.path, e.Name))}>{e.IsDir ? `${e.Name}/` : e.Name}</Link>
            </td>
            <td>{e.IsDir ? '' : size(e.Size)}</td>
            <td>{e.FileMode}</td>
            <td>{fromNanos(Date.parse(e.ModTime) * 1e6)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** Saves the whole file through the page: the token goes in a header, so a plain link cannot fetch it. */
async function download(allocId: string, path: string): Promise<void> {
  const blob = await (await open(fsPath('cat', allocId), { query: { path } })).blob();
  const href = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = href;
  a.download = path.split('/').pop() || 'file';
  a.click();
  setTimeout(() => URL.revokeObjectURL(href), 0);
}

function FileContents(props: { allocId: string; path: string; info: AllocFileInfo }) {
  const pre = useRef<HTMLPreElement>(null);
  const [read, setRead] = useState(0);
  const [error, setError] = useState<Error | undefined>();
  const [busy, setBusy] = useState(false);
  const reader = useRef({ decoder: new TextDecoder(), terminal: new TerminalText() });
  const showable = textual(props.info.ContentType);

  const more = async (from: number) => {
    setBusy(true);
    try {
      const res = await open(fsPath('readat', props.allocId), { query: { path: props.path, offset: String(from), limit: String(PAGE_BYTES) } });
      const bytes = new Uint8Array(await res.arrayBuffer());
      const end = from + bytes.length >= props.info.Size;
      const { decoder, terminal } = reader.current;
      let text = terminal.push(decoder.decode(bytes, { stream: !end }));
      if (end) text += terminal.flush();
      pre.current?.append(document.createTextNode(text));
      setRead(from + bytes.length);
    } catch (err) {
      setError(err as Error);
    } finally {
      setBusy(false);
    }
  };

  useEffect(() => {
    if (showable && props.info.Size > 0) void more(0);
  }, []);

  return (
    <div data-testid="file">
      <div class="toolbar">
        <span>
          {size(props.info.Size)} · {props.info.FileMode} · {props.info.ContentType || 'unknown type'}
        </span>
        <button type="button" data-testid="file-download" onClick={() => download(props.allocId, props.path).catch((err) => setError(err as Error))}>
          Download
        </button>
      </div>
      {error && <Problem error={error} />}
      {showable ? <pre ref={pre} class="log" data-testid="file-contents" /> : <p class="muted">This file is not text ({props.info.ContentType}): download it to read it.</p>}
      {showable && read < props.info.Size && (
        <p>
          <span class="muted">
            Showing the first {size(read)} of {size(props.info.Size)}.{' '}
          </span>
          <button type="button" disabled={busy} data-testid="file-more" onClick={() => more(read)}>
            Show {size(Math.min(PAGE_BYTES, props.info.Size - read))} more
          </button>
        </p>
      )}
    </div>
  );
}

type Entry = { info: AllocFileInfo; entries?: AllocFileInfo[] };

export function AllocFiles(props: { allocId: string; path: string }) {
  const [entry, setEntry] = useState<Entry | undefined>();
  const [error, setError] = useState<Error | undefined>();
  const [generation, setGeneration] = useState(0);
  const path = props.path.split('/').filter(Boolean).join('/');

  useEffect(() => {
    let current = true;
    setEntry(undefined);
    setError(undefined);
    (async () => {
      const info = (await call<AllocFileInfo>(fsPath('stat', props.allocId), { query: { path: path || '/' } })).data;
      const entries = info.IsDir ? ((await call<AllocFileInfo[] | null>(fsPath('ls', props.allocId), { query: { path: path || '/' } })).data ?? []) : undefined;
      if (current) setEntry({ info, entries });
    })().catch((err) => current && setError(err as Error));
    return () => void (current = false);
  }, [props.allocId, path, generation]);

  return (
    <section data-testid="files-browser">
      <div class="toolbar">
        <Crumbs allocId={props.allocId} path={path} />
        <button type="button" onClick={() => setGeneration((g) => g + 1)}>
          Refresh
        </button>
      </div>
      {error && <Problem error={error} />}
      {!entry && !error && <p class="muted">Reading…</p>}
      {entry?.entries && <Directory allocId={props.allocId} path={path} entries={entry.entries} />}
      {entry && !entry.info.IsDir && <FileContents key={`${path}/${generation}`} allocId={props.allocId} path={path} info={entry.info} />}
    </section>
  );
}
