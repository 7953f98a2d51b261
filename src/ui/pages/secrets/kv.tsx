/**
 * /ui/secrets/kv/<mount>?path=…: a KV engine, as Vault's UI browses one. A path ending in '/' (or none)
 * lists the keys below it; any other is a secret, whose values stay hidden until revealed one by one
 * (not in the page at all before), with a form that writes it anew. On version 2 a secret is its
 * latest version or ?version=n, with its version history (metadata/<path>) and delete and undelete per
 * version; on version 1 it is the one value kept, and deleting it deletes it for good.
 */
import { useState } from 'preact/hooks';
import { granted, useCapabilities } from '../../acl.js';
import { ApiError } from '../../api.js';
import { Link, navigate } from '../../router.js';
import { Problem } from '../problem.js';
import type { KvData, KvMetadata, UiMounts } from './types.js';
import { list, mayWrite, read, remove, useRead, write, type Loaded } from './vault.js';

const address = (mount: string, path: string, version?: number) => `/secrets/kv/${encodeURIComponent(mount)}?path=${encodeURIComponent(path)}${version ? `&version=${version}` : ''}`;

/** A secret path as the API takes it: each segment encoded, the slashes kept. */
const apiPath = (path: string) => path.split('/').map(encodeURIComponent).join('/');

const shown = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));

/** Where an engine version keeps its keys and values, and how a write carries them. */
interface Engine {
  /** the listing of a directory (ending in '/' or empty) */
  listPath(mount: string, dir: string): string;
  dataPath(mount: string, path: string): string;
  body(data: Record<string, string>): unknown;
}

const V2: Engine = {
  listPath: (mount, dir) => `${mount}/metadata/${dir}`,
  dataPath: (mount, path) => `${mount}/data/${path}`,
  body: (data) => ({ data }),
};

const V1: Engine = {
  listPath: (mount, dir) => `${mount}/${dir}`,
  dataPath: (mount, path) => `${mount}/${path}`,
  body: (data) => data,
};

/** The values of a secret, each shown only once its Reveal is pressed. */
function Values(props: { entries: Array<[string, unknown]> }) {
  const [revealed, setRevealed] = useState<Set<string>>(new Set());
  const toggle = (k: string) => setRevealed((s) => (s.has(k) ? new Set([...s].filter((x) => x !== k)) : new Set([...s, k])));
  return (
    <table class="list" data-testid="kv-data">
      <thead>
        <tr>
          <th>Key</th>
          <th>Value</th>
          <th />
        </tr>
      </thead>
      <tbody>
        {props.entries.map(([k, v]) => (
          <tr key={k}>
            <td>{k}</td>
            <td data-testid={`kv-value-${k}`}>{revealed.has(k) ? <code>{shown(v)}</code> : <span class="muted">••••••••</span>}</td>
            <td class="actions">
              <button type="button" onClick={() => toggle(k)}>
                {revealed.has(k) ? 'Hide' : 'Reveal'}
              </button>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function Crumbs(props: { mount: string; path: string }) {
  const parts = props.path.split('/').filter(Boolean);
  return (
    <p class="crumbs" data-testid="kv-crumbs">
      <Link to={address(props.mount, '')}>{props.mount}/</Link>
      {parts.map((part, i) => {
        const dir = i < parts.length - 1 || props.path.endsWith('/');
        const to = parts.slice(0, i + 1).join('/') + (dir ? '/' : '');
        return (
          <span key={to}>
            {' '}
            <Link to={address(props.mount, to)}>{`${part}${dir ? '/' : ''}`}</Link>
          </span>
        );
      })}
    </p>
  );
}

interface Row {
  key: string;
  value: string;
}

/** Rows of key and value; values are typed into password fields, so they are not shown while written. */
function SecretEditor(props: { mount: string; engine: Engine; path?: string; initial: Row[]; submitLabel: string; onSaved(path: string): void; onCancel?(): void }) {
  const [path, setPath] = useState(props.path ?? '');
  const [rows, setRows] = useState<Row[]>(props.initial.length ? props.initial : [{ key: '', value: '' }]);
  const [error, setError] = useState<Error>();
  const set = (i: number, change: Partial<Row>) => setRows(rows.map((r, j) => (j === i ? { ...r, ...change } : r)));
  const submit = async (e: Event) => {
    e.preventDefault();
    setError(undefined);
    const target = path.trim().replace(/^\/+/, '');
    if (target === '' || target.endsWith('/')) {
      setError(new Error('Give the secret a path that does not end in "/".'));
      return;
    }
    try {
      await write(props.engine.dataPath(props.mount, apiPath(target)), props.engine.body(Object.fromEntries(rows.filter((r) => r.key.trim() !== '').map((r) => [r.key.trim(), r.value]))));
      props.onSaved(target);
    } catch (err) {
      setError(err as Error);
    }
  };
  return (
    <form class="kv-editor" onSubmit={submit} data-testid="kv-editor">
      {props.path === undefined && (
        <div class="field">
          <label for="kv-path">Path</label>
          <input id="kv-path" value={path} placeholder="app/config" onInput={(e) => setPath((e.target as HTMLInputElement).value)} />
        </div>
      )}
      {rows.map((row, i) => (
        <div key={i} class="kv-row">
          <input aria-label={`Key ${i + 1}`} class="short" value={row.key} placeholder="key" onInput={(e) => set(i, { key: (e.target as HTMLInputElement).value })} />
          <input aria-label={`Value ${i + 1}`} type="password" autocomplete="off" value={row.value} placeholder="value" onInput={(e) => set(i, { value: (e.target as HTMLInputElement).value })} />
          <button type="button" onClick={() => setRows(rows.filter((_, j) => j !== i))} disabled={rows.length === 1}>
            Remove
          </button>
        </div>
      ))}
      <div class="kv-row">
        <button type="button" onClick={() => setRows([...rows, { key: '', value: '' }])}>
          Add key
        </button>
        <button type="submit">{props.submitLabel}</button>
        {props.onCancel && (
          <button type="button" onClick={props.onCancel}>
            Cancel
          </button>
        )}
      </div>
      {error && <Problem error={error} />}
    </form>
  );
}

function Directory(props: { mount: string; engine: Engine; path: string }) {
  const { mount, engine, path } = props;
  const keys = useRead(`${mount} ${path}`, () => list(engine.listPath(mount, apiPath(path))));
  const under = `${engine.dataPath(mount, path)}*`;
  const caps = useCapabilities([engine.listPath(mount, path), under]);
  const [adding, setAdding] = useState(false);
  return (
    <div>
      {keys.error && <Problem error={keys.error} />}
      {keys.data && keys.data.keys.length === 0 && <p class="muted">Nothing here yet.</p>}
      {keys.data && keys.data.keys.length > 0 && (
        <table class="list" data-testid="kv-keys">
          <tbody>
            {keys.data.keys.map((k) => (
              <tr key={k}>
                <td>
                  <Link to={address(mount, `${path}${k}`)}>{k}</Link>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {mayWrite(caps?.[under], false) &&
        (adding ? (
          <>
            <h3>New secret</h3>
            <SecretEditor mount={mount} engine={engine} initial={[]} submitLabel="Save secret" onSaved={(p) => navigate(address(mount, p))} onCancel={() => setAdding(false)} />
          </>
        ) : (
          <button type="button" onClick={() => setAdding(true)}>
            Create secret
          </button>
        ))}
    </div>
  );
}

function Secret(props: { mount: string; path: string; version?: number }) {
  const { mount, path, version } = props;
  const dataPath = V2.dataPath(mount, path);
  const metaPath = `${mount}/metadata/${path}`;
  const secret = useRead(`${dataPath} ${version ?? ''}`, async () => {
    try {
      return await read<KvData>(V2.dataPath(mount, apiPath(path)), version ? { version: String(version) } : {});
    } catch (err) {
      // A deleted or destroyed version answers 404; its history still says what became of it.
      if (err instanceof ApiError && err.status === 404) return undefined;
      throw err;
    }
  });
  const caps = useCapabilities([dataPath, metaPath, `${mount}/delete/${path}`, `${mount}/undelete/${path}`]);
  // The history is read only when the token may: a token that reads the value alone still sees it.
  const meta = useRead(granted(caps?.[metaPath], 'read') ? metaPath : undefined, () => read<KvMetadata>(`${mount}/metadata/${apiPath(path)}`));
  const [writing, setWriting] = useState(false);
  const [error, setError] = useState<Error>();
  const reload = () => {
    secret.reload();
    meta.reload();
  };
  const versions = async (action: 'delete' | 'undelete', v: number) => {
    setError(undefined);
    try {
      await write(`${mount}/${action}/${apiPath(path)}`, { versions: [v] });
      reload();
    } catch (err) {
      setError(err as Error);
    }
  };
  const entries = Object.entries(secret.data?.data ?? {});
  const current = meta.data?.current_version;
  return (
    <div>
      {(secret.error || meta.error || error) && <Problem error={(secret.error ?? meta.error ?? error)!} />}
      {secret.data === undefined && !secret.error && meta.data && <p class="muted">This version is deleted or destroyed: it has no data to show.</p>}
      {secret.data && (
        <>
          <h3>
            Version {secret.data.metadata.version}
            {current !== undefined && secret.data.metadata.version !== current && ` (the latest is ${current})`}
          </h3>
          <Values key={secret.data.metadata.version} entries={entries} />
        </>
      )}
      {mayWrite(caps?.[dataPath], true) &&
        (writing ? (
          <>
            <h3>New version</h3>
            <SecretEditor
              mount={mount}
              engine={V2}
              path={path}
              initial={entries.map(([key, v]) => ({ key, value: shown(v) }))}
              submitLabel="Save new version"
              onSaved={() => {
                setWriting(false);
                if (version) navigate(address(mount, path));
                else reload();
              }}
              onCancel={() => setWriting(false)}
            />
          </>
        ) : (
          <button type="button" onClick={() => setWriting(true)}>
            Write new version
          </button>
        ))}
      {meta.data && (
        <>
          <h3>Versions</h3>
          <table class="list" data-testid="kv-versions">
            <thead>
              <tr>
                <th>Version</th>
                <th>Created</th>
                <th>State</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {Object.entries(meta.data.versions)
                .map(([v, info]) => [Number(v), info] as const)
                .sort(([a], [b]) => b - a)
                .map(([v, info]) => (
                  <tr key={v} data-testid={`kv-version-${v}`}>
                    <td>
                      <Link to={address(mount, path, v)}>{v}</Link>
                      {v === current && ' (latest)'}
                    </td>
                    <td>{info.created_time}</td>
                    <td>{info.destroyed ? 'destroyed' : info.deletion_time ? `deleted ${info.deletion_time}` : 'live'}</td>
                    <td class="actions">
                      {!info.destroyed && !info.deletion_time && granted(caps?.[`${mount}/delete/${path}`], 'update') && (
                        <button type="button" onClick={() => versions('delete', v)}>
                          Delete
                        </button>
                      )}
                      {!info.destroyed && info.deletion_time && granted(caps?.[`${mount}/undelete/${path}`], 'update') && (
                        <button type="button" onClick={() => versions('undelete', v)}>
                          Undelete
                        </button>
                      )}
                    </td>
                  </tr>
                ))}
            </tbody>
          </table>
        </>
      )}
    </div>
  );
}

/** A secret of a version 1 engine: one value, written over in place, deleted for good. */
function SecretV1(props: { mount: string; path: string }) {
  const { mount, path } = props;
  const dataPath = V1.dataPath(mount, path);
  const secret = useRead(dataPath, () => read<Record<string, unknown>>(V1.dataPath(mount, apiPath(path))));
  const caps = useCapabilities([dataPath]);
  const [writing, setWriting] = useState(false);
  const [round, setRound] = useState(0);
  const [error, setError] = useState<Error>();
  const entries = Object.entries(secret.data ?? {});
  const drop = async () => {
    setError(undefined);
    try {
      await remove(V1.dataPath(mount, apiPath(path)));
      navigate(address(mount, path.slice(0, path.lastIndexOf('/') + 1)));
    } catch (err) {
      setError(err as Error);
    }
  };
  return (
    <div>
      {(secret.error || error) && <Problem error={(secret.error ?? error)!} />}
      {secret.data && <Values key={round} entries={entries} />}
      {mayWrite(caps?.[dataPath], true) &&
        (writing ? (
          <SecretEditor
            mount={mount}
            engine={V1}
            path={path}
            initial={entries.map(([key, v]) => ({ key, value: shown(v) }))}
            submitLabel="Save"
            onSaved={() => {
              setWriting(false);
              setRound((r) => r + 1);
              secret.reload();
            }}
            onCancel={() => setWriting(false)}
          />
        ) : (
          <button type="button" onClick={() => setWriting(true)}>
            Write over
          </button>
        ))}{' '}
      {granted(caps?.[dataPath], 'delete') && (
        <button type="button" onClick={drop}>
          Delete secret
        </button>
      )}
    </div>
  );
}

/** `mounts`: sys/internal/ui/mounts as the secrets frame read it for its tabs. */
export function KvPage(props: { mount: string; path: string; version: string | null; mounts: Loaded<UiMounts> }) {
  const { mount, path, mounts } = props;
  const entry = mounts.data?.secret[`${mount}/`];
  const isDir = path === '' || path.endsWith('/');
  const v2 = entry?.options?.version === '2';
  return (
    <div>
      <h2>
        {mount}/ (key/value, version {v2 ? 2 : 1})
      </h2>
      <Crumbs mount={mount} path={path} />
      {mounts.error && <Problem error={mounts.error} />}
      {mounts.data && !entry && <p class="error">There is no KV engine at {mount}/ that this token can reach.</p>}
      {entry && isDir && <Directory key={path} mount={mount} engine={v2 ? V2 : V1} path={path} />}
      {entry && !isDir && (v2 ? <Secret key={`${path} ${props.version}`} mount={mount} path={path} version={Number(props.version) || undefined} /> : <SecretV1 key={path} mount={mount} path={path} />)}
    </div>
  );
}
