/**
 * /ui/settings/tokens, as Nomad's UI: paste a token's secret to sign in (checked with the server before
 * it is kept), see whose token is in use, sign out. (A one-time token in the address is exchanged before
 * the app starts: main.tsx.)
 */
import { useEffect, useState } from 'preact/hooks';
import { call } from '../api.js';
import { Link } from '../router.js';
import { currentToken, setToken } from '../token.js';
import type { AclToken } from '../types.js';

async function whoAmI(secret: string): Promise<AclToken> {
  return (await call<AclToken>('/v1/acl/token/self', { token: secret })).data;
}

export function TokensPage() {
  const [self, setSelf] = useState<AclToken | undefined>();
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const [secret, setSecret] = useState('');

  useEffect(() => {
    const held = currentToken();
    if (held) whoAmI(held).then(setSelf, (err: Error) => setError(`The token held is not valid any more: ${err.message}`));
  }, []);

  const signIn = async (e: Event) => {
    e.preventDefault();
    setError(undefined);
    setBusy(true);
    try {
      const token = await whoAmI(secret.trim());
      setToken(secret.trim());
      setSecret('');
      setSelf(token);
    } catch (err) {
      setError(`That token was refused: ${(err as Error).message}`);
    } finally {
      setBusy(false);
    }
  };

  const signOut = () => {
    setToken(undefined);
    setSelf(undefined);
  };

  return (
    <section>
      <h1>Access control tokens</h1>
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      {self && currentToken() ? (
        <div>
          <p data-testid="signed-in">
            Signed in as <strong>{self.Name || '(unnamed token)'}</strong> ({self.Type} token)
          </p>
          <dl class="facts">
            <dt>Accessor ID</dt>
            <dd>{self.AccessorID}</dd>
            <dt>Policies</dt>
            <dd>{self.Type === 'management' ? 'all (management)' : (self.Policies ?? []).join(', ')}</dd>
            <dt>Expires</dt>
            <dd>{self.ExpirationTime ?? 'never'}</dd>
          </dl>
          <p>
            <Link to="/secrets">The token on the secrets side</Link>: its TTL, uses left and identity.
          </p>
          <button type="button" onClick={signOut}>
            Sign out
          </button>
        </div>
      ) : (
        <form onSubmit={signIn}>
          <label for="secret">Secret ID</label>
          <input id="secret" name="secret" type="password" autocomplete="off" value={secret} onInput={(e) => setSecret((e.target as HTMLInputElement).value)} />
          <button type="submit" disabled={busy || secret.trim() === ''}>
            Sign in
          </button>
          <p class="hint">The token is kept in this tab only, and forgotten when it closes or you sign out.</p>
        </form>
      )}
    </section>
  );
}
