/** /ui/secrets: the token in use as the secrets side knows it (auth/token/lookup-self), its secret never shown. */
import { granted, useCapabilities } from '../../acl.js';
import { Link } from '../../router.js';
import { Problem } from '../problem.js';
import type { TokenLookup } from './types.js';
import { read, useRead } from './vault.js';

export const seconds = (s: number) => {
  if (!s) return 'none';
  const parts: string[] = [];
  for (const [unit, size] of [['d', 86400], ['h', 3600], ['m', 60], ['s', 1]] as const) {
    if (s >= size) {
      parts.push(`${Math.floor(s / size)}${unit}`);
      s %= size;
    }
  }
  return parts.join(' ');
};

export function PolicyLinks(props: { names: string[]; linked: boolean }) {
  if (props.names.length === 0) return <span class="muted">none</span>;
  return (
    <span class="counts">
      {props.names.map((n) =>
        props.linked ? (
          <Link key={n} to={`/secrets/policies/${encodeURIComponent(n)}`}>
            {n}
          </Link>
        ) : (
          <span key={n}>{n}</span>
        ),
      )}
    </span>
  );
}

export function TokenSelfPage() {
  const self = useRead('lookup-self', () => read<TokenLookup>('auth/token/lookup-self'));
  const caps = useCapabilities(['sys/policies/acl']);
  if (self.error) return <Problem error={self.error} />;
  if (!self.data) return <p class="muted">Loading…</p>;
  const t = self.data;
  const linked = granted(caps?.['sys/policies/acl'], 'list');
  return (
    <div>
      <h2>Your token</h2>
      <dl class="facts" data-testid="token-self">
        <dt>Display name</dt>
        <dd>{t.display_name}</dd>
        <dt>Accessor</dt>
        <dd>{t.accessor}</dd>
        <dt>Type</dt>
        <dd>{t.type}</dd>
        <dt>Policies</dt>
        <dd data-testid="token-policies">
          <PolicyLinks names={t.policies ?? []} linked={linked} />
        </dd>
        {(t.identity_policies ?? []).length > 0 && (
          <>
            <dt>Identity policies</dt>
            <dd>
              <PolicyLinks names={t.identity_policies ?? []} linked={linked} />
            </dd>
          </>
        )}
        <dt>Entity</dt>
        <dd>{t.entity_id || 'none'}</dd>
        <dt>Created by</dt>
        <dd>{t.path}</dd>
        <dt>Issued</dt>
        <dd>{t.issue_time}</dd>
        <dt>Time to live</dt>
        <dd>{t.ttl ? seconds(t.ttl) : 'never expires'}</dd>
        <dt>Expires</dt>
        <dd>{t.expire_time ?? 'never'}</dd>
        <dt>Uses left</dt>
        <dd>{t.num_uses || 'unlimited'}</dd>
        <dt>Renewable</dt>
        <dd>{t.renewable ? 'yes' : 'no'}</dd>
      </dl>
    </div>
  );
}
