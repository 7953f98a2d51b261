/**
 * The app's start. A one-time token in the address (`?ott=`, from `svc ui -authenticate`) leaves the
 * address bar before anything else is asked of the server, and is exchanged for the token the app then
 * signs in with; the page asked for opens signed in.
 */
import { render } from 'preact';
import './style.css';
import { App } from './app.js';
import { call } from './api.js';
import { setToken } from './token.js';
import type { AclToken } from './types.js';

async function exchangeOneTimeToken(): Promise<string | undefined> {
  const params = new URLSearchParams(location.search);
  const ott = params.get('ott');
  if (ott === null) return undefined;
  params.delete('ott');
  const rest = params.toString();
  history.replaceState(null, '', `${location.pathname}${rest ? `?${rest}` : ''}${location.hash}`);
  try {
    const { data } = await call<{ Token: AclToken }>('/v1/acl/token/onetime/exchange', { method: 'POST', body: { OneTimeSecretID: ott }, token: '' });
    setToken(data.Token.SecretID);
    return undefined;
  } catch (err) {
    return `Signing in with the one-time token failed: ${(err as Error).message}`;
  }
}

const notice = await exchangeOneTimeToken();
render(<App notice={notice} />, document.getElementById('app')!);
