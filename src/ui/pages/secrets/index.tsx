/**
 * /ui/secrets/…: the secrets side, as Vault's UI shows it. One frame with a tab per area the token can
 * reach (its own token always; the others when sys/capabilities-self grants their paths), one per
 * mount of the cloud auth method and of the KV engine the token reaches (sys/internal/ui/mounts), and
 * the page the address names below it. Loaded when first opened.
 */
import type { ComponentChildren } from 'preact';
import { granted, useCapabilities, usePermissionsVersion } from '../../acl.js';
import { Link, match, type Location } from '../../router.js';
import { AuthMethodsPage } from './methods.js';
import { CloudMethodPage, CloudRolePage } from './cloud.js';
import { IdentityPage } from './identity.js';
import { PoliciesPage, PolicyPage } from './policies.js';
import { IssuedTokensPage, tokensAccess } from './issued-tokens.js';
import { KvPage } from './kv.js';
import { TokenSelfPage } from './self.js';
import type { UiMounts } from './types.js';
import { mountName, read, useRead } from './vault.js';

const AREA_PATHS = ['sys/auth', 'identity/entity/id', 'sys/policies/acl', 'auth/token/create', 'auth/token/accessors'];

function Tab(props: { to: string; active: boolean; children: ComponentChildren }) {
  return (
    <Link to={props.to} class={props.active ? 'active' : undefined} aria-current={props.active ? 'page' : undefined}>
      {props.children}
    </Link>
  );
}

export function SecretsPage(props: { loc: Location }) {
  const { path, query } = props.loc;
  const caps = useCapabilities(AREA_PATHS);
  // Enabling or disabling a method drops the permissions kept; the mounts reached are read again with them.
  const version = usePermissionsVersion();
  const mounts = useRead(`ui-mounts ${version}`, () => read<UiMounts>('sys/internal/ui/mounts'));
  const byType = (kind: 'auth' | 'secret', type: string) => Object.entries(mounts.data?.[kind] ?? {}).filter(([, m]) => m.type === type).map(([p]) => mountName(p));
  const cloudMounts = byType('auth', 'cloud');
  const kvMounts = byType('secret', 'kv');
  const under = (prefix: string) => path === prefix || path.startsWith(`${prefix}/`);

  let page;
  let m: Record<string, string> | undefined;
  if (path === '/secrets' || path === '/secrets/') page = <TokenSelfPage />;
  else if (path === '/secrets/methods') page = <AuthMethodsPage />;
  else if ((m = match('/secrets/methods/:mount/roles/:role', path))) page = <CloudRolePage key={`${m.mount}/${m.role}`} mount={m.mount} role={m.role} />;
  else if ((m = match('/secrets/methods/:mount', path))) page = <CloudMethodPage key={m.mount} mount={m.mount} tab={query.get('tab') ?? 'roles'} />;
  else if (path === '/secrets/identity') page = <IdentityPage tab={query.get('tab') ?? 'entities'} />;
  else if (path === '/secrets/policies') page = <PoliciesPage />;
  else if ((m = match('/secrets/policies/:name', path))) page = <PolicyPage key={m.name} name={m.name} />;
  else if (path === '/secrets/tokens') page = <IssuedTokensPage />;
  else if ((m = match('/secrets/kv/:mount', path))) page = <KvPage key={m.mount} mount={m.mount} path={query.get('path') ?? ''} version={query.get('version')} mounts={mounts} />;
  else page = <p>There is no secrets page at this address.</p>;

  return (
    <section>
      <h1>Secrets</h1>
      <nav class="tabs" data-testid="secrets-tabs" data-permissions={caps ? 'known' : 'pending'}>
        <Tab to="/secrets" active={path === '/secrets' || path === '/secrets/'}>
          Token
        </Tab>
        {granted(caps?.['sys/auth'], 'read') && (
          <Tab to="/secrets/methods" active={path === '/secrets/methods'}>
            Auth methods
          </Tab>
        )}
        {cloudMounts.map((mount) => (
          <Tab key={mount} to={`/secrets/methods/${encodeURIComponent(mount)}`} active={under(`/secrets/methods/${encodeURIComponent(mount)}`)}>
            {mount}/ (cloud)
          </Tab>
        ))}
        {granted(caps?.['identity/entity/id'], 'list') && (
          <Tab to="/secrets/identity" active={path === '/secrets/identity'}>
            Identity
          </Tab>
        )}
        {granted(caps?.['sys/policies/acl'], 'list') && (
          <Tab to="/secrets/policies" active={under('/secrets/policies')}>
            Policies
          </Tab>
        )}
        {(tokensAccess(caps).create || tokensAccess(caps).list) && (
          <Tab to="/secrets/tokens" active={path === '/secrets/tokens'}>
            Tokens
          </Tab>
        )}
        {kvMounts.map((mount) => (
          <Tab key={mount} to={`/secrets/kv/${encodeURIComponent(mount)}`} active={under(`/secrets/kv/${encodeURIComponent(mount)}`)}>
            {mount}/ (kv)
          </Tab>
        ))}
      </nav>
      {page}
    </section>
  );
}
