/**
 * /ui/secrets/tokens: making a token (auth/token/create: policies, TTL, a display name), whose secret is
 * shown once, here, and nowhere again; and every live token by its accessor (auth/token/accessors, a
 * sudo path), each looked up by accessor (its secret never in the answer) and revocable by it.
 */
import { useState } from 'preact/hooks';
import { granted, useCapabilities } from '../../acl.js';
import { Problem } from '../problem.js';
import { PolicyLinks, seconds } from './self.js';
import type { TokenLookup } from './types.js';
import { items, list, mayWrite, useRead, write } from './vault.js';

interface Created {
  secret: string;
  accessor: string;
  policies: string[];
  ttl: number;
}

function CreateToken(props: { onCreated(): void }) {
  const [policies, setPolicies] = useState('');
  const [ttl, setTtl] = useState('');
  const [name, setName] = useState('');
  const [error, setError] = useState<Error>();
  const [created, setCreated] = useState<Created>();
  const submit = async (e: Event) => {
    e.preventDefault();
    setError(undefined);
    try {
      const answer = await write('auth/token/create', { policies: items(policies), ...(ttl.trim() ? { ttl: ttl.trim() } : {}), ...(name.trim() ? { display_name: name.trim() } : {}) });
      const auth = answer.auth!;
      setCreated({ secret: auth.client_token, accessor: auth.accessor, policies: auth.policies, ttl: auth.lease_duration });
      setPolicies('');
      setTtl('');
      setName('');
      props.onCreated();
    } catch (err) {
      setError(err as Error);
    }
  };
  if (created) {
    return (
      <div class="once" data-testid="new-token">
        <p>
          <strong>Copy the secret now:</strong> it is shown this once, and the server will not show it again.
        </p>
        <dl class="facts">
          <dt>Secret ID</dt>
          <dd>
            <code data-testid="new-token-secret">{created.secret}</code>
          </dd>
          <dt>Accessor</dt>
          <dd data-testid="new-token-accessor">{created.accessor}</dd>
          <dt>Policies</dt>
          <dd>{created.policies.join(', ')}</dd>
          <dt>Time to live</dt>
          <dd>{created.ttl ? seconds(created.ttl) : 'never expires'}</dd>
        </dl>
        <button type="button" onClick={() => setCreated(undefined)}>
          Done
        </button>
      </div>
    );
  }
  return (
    <form onSubmit={submit} data-testid="create-token">
      <label for="token-policies">Policies</label>
      <input id="token-policies" class="short" value={policies} placeholder="comma-separated" onInput={(e) => setPolicies((e.target as HTMLInputElement).value)} />
      <label for="token-ttl">TTL</label>
      <input id="token-ttl" class="short" value={ttl} placeholder="e.g. 1h" onInput={(e) => setTtl((e.target as HTMLInputElement).value)} />
      <label for="token-name">Display name</label>
      <input id="token-name" class="short" value={name} onInput={(e) => setName((e.target as HTMLInputElement).value)} />
      <button type="submit">Create token</button>
      <p class="hint">The new token is a child of yours: it can have only policies your token has, unless yours is a root token.</p>
      {error && <Problem error={error} />}
    </form>
  );
}

function AccessorRow(props: { accessor: string; canRevoke: boolean; onRevoked(): void }) {
  const looked = useRead(`accessor ${props.accessor}`, async () => (await write<TokenLookup>('auth/token/lookup-accessor', { accessor: props.accessor })).data);
  const [error, setError] = useState<Error>();
  const revoke = async () => {
    setError(undefined);
    try {
      await write('auth/token/revoke-accessor', { accessor: props.accessor });
      props.onRevoked();
    } catch (err) {
      setError(err as Error);
    }
  };
  const t = looked.data;
  return (
    <tr data-testid={`accessor-${props.accessor}`}>
      <td>{props.accessor}</td>
      <td>{t?.display_name}</td>
      <td>{t && <PolicyLinks names={t.policies ?? []} linked={false} />}</td>
      <td>{t ? (t.ttl ? seconds(t.ttl) : 'never expires') : ''}</td>
      <td class="actions">
        {props.canRevoke && (
          <button type="button" onClick={revoke}>
            Revoke
          </button>
        )}
        {(error ?? looked.error) && <Problem error={(error ?? looked.error)!} />}
      </td>
    </tr>
  );
}

/** Each row is looked up on its own, so the list grows a page at a time rather than all at once. */
const PAGE = 50;

/**
 * What the Tokens page offers: creating a token, and listing tokens by accessor (which Vault asks sudo
 * for). The secrets frame shows the page's tab when either is granted, so the page is never empty.
 */
export function tokensAccess(caps: Record<string, string[]> | undefined): { create: boolean; list: boolean } {
  return {
    create: mayWrite(caps?.['auth/token/create']),
    list: granted(caps?.['auth/token/accessors'], 'list') && granted(caps?.['auth/token/accessors'], 'sudo'),
  };
}

export function IssuedTokensPage() {
  const caps = useCapabilities(['auth/token/create', 'auth/token/accessors', 'auth/token/revoke-accessor']);
  const [shown, setShown] = useState(PAGE);
  const access = tokensAccess(caps);
  const mayList = access.list;
  const accessors = useRead(mayList ? 'accessors' : undefined, () => list('auth/token/accessors'));
  if (!caps) return <p class="muted">Loading…</p>;
  return (
    <div>
      {access.create && (
        <>
          <h2>Create a token</h2>
          <CreateToken onCreated={accessors.reload} />
        </>
      )}
      {mayList && (
        <>
          <h2>Tokens by accessor</h2>
          {accessors.error && <Problem error={accessors.error} />}
          {accessors.data && (
            <table class="list" data-testid="accessors">
              <thead>
                <tr>
                  <th>Accessor</th>
                  <th>Display name</th>
                  <th>Policies</th>
                  <th>Time to live</th>
                  <th />
                </tr>
              </thead>
              <tbody>
                {accessors.data.keys.slice(0, shown).map((a) => (
                  <AccessorRow key={a} accessor={a} canRevoke={mayWrite(caps['auth/token/revoke-accessor'])} onRevoked={accessors.reload} />
                ))}
              </tbody>
            </table>
          )}
          {accessors.data && accessors.data.keys.length > shown && (
            <nav class="pager">
              <button type="button" onClick={() => setShown(shown + PAGE)}>
                Show {Math.min(PAGE, accessors.data.keys.length - shown)} more of {accessors.data.keys.length - shown}
              </button>
            </nav>
          )}
        </>
      )}
    </div>
  );
}
