/**
 * /ui/secrets/methods: the auth methods enabled (sys/auth), enabling one at a path, disabling one (its
 * tokens go with it, so the button asks twice) and tuning its default and maximum lease TTL
 * (sys/auth/<path>/tune). Each action is shown only when the token's capabilities allow it.
 */
import { useState } from 'preact/hooks';
import { forgetPermissions, granted, useCapabilities } from '../../acl.js';
import { Link } from '../../router.js';
import { ConfirmButton } from '../../confirm.js';
import { Problem } from '../problem.js';
import { seconds } from './self.js';
import type { MountEntry, TuneAnswer } from './types.js';
import { mayWrite, mountName, read, remove, useRead, write } from './vault.js';

/** The methods this server can enable; the token method is always there and cannot be enabled again. */
const TYPES = ['cloud'];

function EnableForm(props: { onDone(): void }) {
  const [type, setType] = useState(TYPES[0]);
  const [path, setPath] = useState('');
  const [description, setDescription] = useState('');
  const [error, setError] = useState<Error>();
  const submit = async (e: Event) => {
    e.preventDefault();
    setError(undefined);
    try {
      await write(`sys/auth/${mountName(path.trim() || type)}`, { type, description });
      setPath('');
      setDescription('');
      forgetPermissions();
      props.onDone();
    } catch (err) {
      setError(err as Error);
    }
  };
  return (
    <form onSubmit={submit} data-testid="enable-method">
      <label for="method-type">Type</label>
      <select id="method-type" value={type} onChange={(e) => setType((e.target as HTMLSelectElement).value)}>
        {TYPES.map((t) => (
          <option key={t} value={t}>
            {t}
          </option>
        ))}
      </select>
      <label for="method-path">Path</label>
      <input id="method-path" class="short" value={path} placeholder={type} onInput={(e) => setPath((e.target as HTMLInputElement).value)} />
      <label for="method-description">Description</label>
      <input id="method-description" value={description} onInput={(e) => setDescription((e.target as HTMLInputElement).value)} />
      <button type="submit">Enable method</button>
      {error && <Problem error={error} />}
    </form>
  );
}

function TuneForm(props: { mount: string; onDone(): void }) {
  const tune = useRead(`tune ${props.mount}`, () => read<TuneAnswer>(`sys/auth/${props.mount}/tune`));
  const [edits, setEdits] = useState<{ default_lease_ttl?: string; max_lease_ttl?: string }>({});
  const [error, setError] = useState<Error>();
  if (tune.error) return <Problem error={tune.error} />;
  if (!tune.data) return <p class="muted">Loading…</p>;
  const value = (k: 'default_lease_ttl' | 'max_lease_ttl') => edits[k] ?? String(tune.data![k]);
  const submit = async (e: Event) => {
    e.preventDefault();
    setError(undefined);
    try {
      await write(`sys/auth/${props.mount}/tune`, edits);
      props.onDone();
    } catch (err) {
      setError(err as Error);
    }
  };
  return (
    <form onSubmit={submit} data-testid={`tune-${props.mount}`}>
      <label for={`default-ttl-${props.mount}`}>Default lease TTL</label>
      <input id={`default-ttl-${props.mount}`} class="short" value={value('default_lease_ttl')} onInput={(e) => setEdits({ ...edits, default_lease_ttl: (e.target as HTMLInputElement).value })} />
      <label for={`max-ttl-${props.mount}`}>Max lease TTL</label>
      <input id={`max-ttl-${props.mount}`} class="short" value={value('max_lease_ttl')} onInput={(e) => setEdits({ ...edits, max_lease_ttl: (e.target as HTMLInputElement).value })} />
      <button type="submit">Save</button>
      <p class="hint">Seconds, or a duration such as 1h or 30m; 0 takes the server's default.</p>
      {error && <Problem error={error} />}
    </form>
  );
}

function MethodRow(props: { path: string; entry: MountEntry; caps?: Record<string, string[]>; onChange(): void }) {
  const { path, entry } = props;
  const mount = mountName(path);
  const [tuning, setTuning] = useState(false);
  const [error, setError] = useState<Error>();
  const canTune = entry.type !== 'token' && mayWrite(props.caps?.[`sys/auth/${mount}/tune`]);
  const canDisable = entry.type !== 'token' && granted(props.caps?.[`sys/auth/${mount}`], 'delete');
  const disable = async () => {
    try {
      await remove(`sys/auth/${mount}`);
      forgetPermissions();
      props.onChange();
    } catch (err) {
      setError(err as Error);
    }
  };
  return (
    <>
      <tr data-testid={`method-${mount}`}>
        <td>{entry.type === 'cloud' ? <Link to={`/secrets/methods/${encodeURIComponent(mount)}`}>{path}</Link> : path}</td>
        <td>{entry.type}</td>
        <td>{entry.accessor}</td>
        <td>{entry.description}</td>
        <td>{entry.config.default_lease_ttl ? seconds(entry.config.default_lease_ttl) : "server's"}</td>
        <td>{entry.config.max_lease_ttl ? seconds(entry.config.max_lease_ttl) : "server's"}</td>
        <td class="actions">
          {canTune && (
            <button type="button" onClick={() => setTuning(!tuning)}>
              Tune
            </button>
          )}
          {canDisable && <ConfirmButton label="Disable" question={`Disable ${path} and revoke its tokens?`} confirmLabel="Disable" danger testid={`disable-${mount}`} onConfirm={disable} />}
        </td>
      </tr>
      {(tuning || error) && (
        <tr>
          <td colSpan={7}>
            {error && <Problem error={error} />}
            {tuning && (
              <TuneForm
                mount={mount}
                onDone={() => {
                  setTuning(false);
                  props.onChange();
                }}
              />
            )}
          </td>
        </tr>
      )}
    </>
  );
}

export function AuthMethodsPage() {
  const methods = useRead('sys/auth', () => read<Record<string, MountEntry>>('sys/auth'));
  const entries = Object.entries(methods.data ?? {}).sort(([a], [b]) => (a < b ? -1 : 1));
  const caps = useCapabilities(['sys/auth/*', ...entries.flatMap(([p]) => [`sys/auth/${mountName(p)}`, `sys/auth/${mountName(p)}/tune`])]);
  return (
    <div>
      <h2>Auth methods</h2>
      {methods.error && <Problem error={methods.error} />}
      {methods.data && (
        <table class="list" data-testid="auth-methods">
          <thead>
            <tr>
              <th>Path</th>
              <th>Type</th>
              <th>Accessor</th>
              <th>Description</th>
              <th>Default TTL</th>
              <th>Max TTL</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {entries.map(([path, entry]) => (
              <MethodRow key={path} path={path} entry={entry} caps={caps} onChange={methods.reload} />
            ))}
          </tbody>
        </table>
      )}
      {mayWrite(caps?.['sys/auth/*']) && (
        <>
          <h2>Enable an auth method</h2>
          <EnableForm onDone={methods.reload} />
        </>
      )}
    </div>
  );
}
