/**
 * /ui/secrets/policies: every ACL policy (sys/policies/acl), and one policy's text in an editor. A
 * policy the server refuses is not stored; its message says where (line and column), and the editor
 * marks that line and puts the caret on it. Saving or deleting one drops the permissions the pages
 * keep, since the token's own may have changed. Format asks the server (sys/internal/ui/format-policy)
 * for the layout `svc policy fmt` writes, since the parser and the formatter are the server's.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { forgetPermissions, granted, useCapabilities } from '../../acl.js';
import { ApiError } from '../../api.js';
import { Link, navigate } from '../../router.js';
import { Problem } from '../problem.js';
import { list, read, remove, useRead, vault, write } from './vault.js';
import { caretToLine } from '../../caret.js';

/** The two policies every server has: root cannot be written, neither can be deleted. */
const BUILT_IN = new Set(['root', 'default']);

const FORMAT_PATH = 'sys/internal/ui/format-policy';

export function PoliciesPage() {
  const policies = useRead('policies', () => list('sys/policies/acl'));
  const caps = useCapabilities(['sys/policies/acl/*']);
  const [name, setName] = useState('');
  return (
    <div>
      <h2>ACL policies</h2>
      {policies.error && <Problem error={policies.error} />}
      {policies.data && (
        <table class="list" data-testid="policies">
          <tbody>
            {policies.data.keys.map((p) => (
              <tr key={p}>
                <td>
                  <Link to={`/secrets/policies/${encodeURIComponent(p)}`}>{p}</Link>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {granted(caps?.['sys/policies/acl/*'], 'update') && (
        <form
          data-testid="new-policy"
          onSubmit={(e) => {
            e.preventDefault();
            if (name.trim()) navigate(`/secrets/policies/${encodeURIComponent(name.trim().toLowerCase())}`);
          }}
        >
          <label for="new-policy-name">New policy</label>
          <input id="new-policy-name" class="short" value={name} placeholder="name" onInput={(e) => setName((e.target as HTMLInputElement).value)} />
          <button type="submit" disabled={name.trim() === ''}>
            Write policy
          </button>
        </form>
      )}
    </div>
  );
}

/** "… line 3, column 7: …" → 3 */
const lineOf = (message: string) => Number(/\bline (\d+)/.exec(message)?.[1] ?? 0) || undefined;

export function PolicyPage(props: { name: string }) {
  const { name } = props;
  const path = `sys/policies/acl/${encodeURIComponent(name)}`;
  const policy = useRead(path, async () => {
    try {
      return { text: (await read<{ policy: string }>(path)).policy, exists: true };
    } catch (err) {
      if (err instanceof ApiError && err.status === 404) return { text: '', exists: false };
      throw err;
    }
  });
  const caps = useCapabilities([path, FORMAT_PATH]);
  const [text, setText] = useState<string>();
  const [error, setError] = useState<string>();
  const [saved, setSaved] = useState(false);
  const editor = useRef<HTMLTextAreaElement>(null);
  const current = text ?? policy.data?.text ?? '';
  const badLine = error ? lineOf(error) : undefined;

  useEffect(() => {
    if (!badLine || !editor.current) return;
    caretToLine(editor.current, current, badLine);
  }, [error]);

  const save = async (e: Event) => {
    e.preventDefault();
    setError(undefined);
    setSaved(false);
    try {
      await vault('PUT', path, { policy: current });
      setSaved(true);
      forgetPermissions();
      policy.reload();
      setText(undefined);
    } catch (err) {
      setError((err as Error).message);
    }
  };
  const format = async () => {
    setError(undefined);
    setSaved(false);
    try {
      setText((await write<{ policy: string }>(FORMAT_PATH, { policy: current, name })).data.policy);
    } catch (err) {
      setError((err as Error).message);
    }
  };
  const drop = async () => {
    try {
      await remove(path);
      forgetPermissions();
      navigate('/secrets/policies');
    } catch (err) {
      setError((err as Error).message);
    }
  };

  if (policy.error) return <Problem error={policy.error} />;
  if (!policy.data || !caps) return <p class="muted">Loading…</p>;
  const canWrite = name !== 'root' && granted(caps[path], 'update');
  const lines = current.split('\n');
  return (
    <div>
      <p class="crumbs">
        <Link to="/secrets/policies">Policies</Link>
      </p>
      <h2 data-testid="policy-name">{name}</h2>
      {!policy.data.exists && <p class="muted">A new policy: nothing is stored until it is saved.</p>}
      {name === 'root' && <p class="muted">The root policy grants everything and has no text; it cannot be written.</p>}
      {error && (
        <div class="error" role="alert" data-testid="policy-error">
          {badLine && <p data-testid="policy-error-at">Line {badLine}</p>}
          <p>{error}</p>
        </div>
      )}
      {saved && <p data-testid="policy-saved">Saved.</p>}
      <form class="editor-form" onSubmit={save}>
        <div class="editor">
          <pre class="gutter" aria-hidden="true">
            {lines.map((_, i) =>
              i + 1 === badLine ? (
                <mark key={i} data-testid="policy-error-line">
                  {`${i + 1}\n`}
                </mark>
              ) : (
                `${i + 1}\n`
              ),
            )}
          </pre>
          <textarea
            ref={editor}
            id="policy-text"
            aria-label="Policy text"
            spellcheck={false}
            rows={Math.max(10, lines.length + 1)}
            value={current}
            readOnly={!canWrite}
            onInput={(e) => setText((e.target as HTMLTextAreaElement).value)}
          />
        </div>
        {canWrite && granted(caps[FORMAT_PATH], 'update') && (
          <button type="button" onClick={format} disabled={current.trim() === ''}>
            Format
          </button>
        )}
        {canWrite && <button type="submit">Save policy</button>}
        {policy.data.exists && !BUILT_IN.has(name) && granted(caps[path], 'delete') && (
          <button type="button" onClick={drop}>
            Delete policy
          </button>
        )}
      </form>
    </div>
  );
}
