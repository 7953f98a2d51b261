/**
 * /ui/secrets/methods/<mount>: a cloud auth method, as Vault's UI shows the aws method: its roles
 * (listed, created and edited through a form generated from the role's field schema), its client
 * configuration (the same kind of form; the secret key is written, never shown), and the entries of
 * its identity access list and role tag deny list (listed, read, deleted). A role's page also makes
 * role tags, for roles that read them.
 */
import { useState } from 'preact/hooks';
import { granted, useCapabilities } from '../../acl.js';
import { ApiError } from '../../api.js';
import { Link, navigate } from '../../router.js';
import { Problem } from '../problem.js';
import { SchemaForm } from './schema-form.js';
import { list, mayWrite, read, remove, useRead } from './vault.js';

const seg = encodeURIComponent;

function Tabs(props: { mount: string; tab: string }) {
  const base = `/secrets/methods/${seg(props.mount)}`;
  const tabs = [
    ['roles', 'Roles'],
    ['config', 'Configuration'],
    ['access-list', 'Access list'],
    ['deny-list', 'Deny list'],
  ];
  return (
    <nav class="tabs subtabs">
      {tabs.map(([id, label]) => (
        <Link key={id} to={`${base}?tab=${id}`} class={props.tab === id ? 'active' : undefined}>
          {label}
        </Link>
      ))}
    </nav>
  );
}

function Roles(props: { mount: string }) {
  const { mount } = props;
  const roles = useRead(`roles ${mount}`, () => list(`auth/${mount}/role`));
  const caps = useCapabilities([`auth/${mount}/role`, `auth/${mount}/role/*`]);
  const [creating, setCreating] = useState(false);
  const [name, setName] = useState('');
  return (
    <div>
      {roles.error && <Problem error={roles.error} />}
      {roles.data && roles.data.keys.length === 0 && <p class="muted">No roles yet.</p>}
      {roles.data && roles.data.keys.length > 0 && (
        <table class="list" data-testid="cloud-roles">
          <thead>
            <tr>
              <th>Role</th>
            </tr>
          </thead>
          <tbody>
            {roles.data.keys.map((role) => (
              <tr key={role}>
                <td>
                  <Link to={`/secrets/methods/${seg(mount)}/roles/${seg(role)}`}>{role}</Link>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {mayWrite(caps?.[`auth/${mount}/role/*`], false) &&
        (creating ? (
          <div data-testid="create-role">
            <h3>New role</h3>
            <div class="field">
              <label for="role-name">Name</label>
              <input id="role-name" value={name} onInput={(e) => setName((e.target as HTMLInputElement).value.trim())} />
            </div>
            <SchemaForm
              path={`auth/${mount}/role/${seg(name)}`}
              fieldsPath={`auth/${mount}/role/new-role`}
              values={{}}
              create
              canWrite={name !== ''}
              submitLabel="Create role"
              onSaved={() => navigate(`/secrets/methods/${seg(mount)}/roles/${seg(name)}`)}
            />
          </div>
        ) : (
          <button type="button" onClick={() => setCreating(true)}>
            Create role
          </button>
        ))}
    </div>
  );
}

function ClientConfig(props: { mount: string }) {
  const path = `auth/${props.mount}/config/client`;
  const config = useRead(path, async () => {
    try {
      return { values: await read<Record<string, unknown>>(path), exists: true };
    } catch (err) {
      if (err instanceof ApiError && err.status === 404) return { values: {}, exists: false };
      throw err;
    }
  });
  const caps = useCapabilities([path]);
  const [saved, setSaved] = useState(false);
  if (config.error) return <Problem error={config.error} />;
  if (!config.data || !caps) return <p class="muted">Loading…</p>;
  return (
    <div>
      <p class="hint">How this method reaches the cloud provider's API to check logins. The secret key is written here and never read back.</p>
      {saved && <p data-testid="config-saved">Saved.</p>}
      <SchemaForm
        key={String(config.data.exists)}
        path={path}
        values={config.data.values}
        create={!config.data.exists}
        canWrite={mayWrite(caps[path], config.data.exists)}
        submitLabel="Save configuration"
        onSaved={() => {
          setSaved(true);
          config.reload();
        }}
      />
    </div>
  );
}

/** The entries of a listing path (access list or deny list): each read when opened, deleted on request. */
function Entries(props: { mount: string; path: string; what: string; testid: string }) {
  const base = `auth/${props.mount}/${props.path}`;
  const entries = useRead(base, () => list(base));
  const caps = useCapabilities([base, `${base}/*`]);
  const [open, setOpen] = useState<string>();
  const entry = useRead(open === undefined ? undefined : `${base} ${open}`, () => read<Record<string, unknown>>(`${base}/${open!.split('/').map(seg).join('/')}`));
  const [error, setError] = useState<Error>();
  const drop = async (key: string) => {
    setError(undefined);
    try {
      await remove(`${base}/${key.split('/').map(seg).join('/')}`);
      if (open === key) setOpen(undefined);
      entries.reload();
    } catch (err) {
      setError(err as Error);
    }
  };
  return (
    <div>
      {(entries.error || error) && <Problem error={(entries.error ?? error)!} />}
      {entries.data && entries.data.keys.length === 0 && <p class="muted">No {props.what} entries.</p>}
      {entries.data && entries.data.keys.length > 0 && (
        <table class="list" data-testid={props.testid}>
          <tbody>
            {entries.data.keys.map((key) => (
              <tr key={key}>
                <td>
                  <button type="button" class="link" onClick={() => setOpen(open === key ? undefined : key)}>
                    {key}
                  </button>
                  {open === key && entry.data && (
                    <dl class="facts">
                      {Object.entries(entry.data).map(([k, v]) => [<dt key={`${k}-t`}>{k}</dt>, <dd key={`${k}-d`}>{typeof v === 'string' ? v : JSON.stringify(v)}</dd>])}
                    </dl>
                  )}
                  {open === key && entry.error && <Problem error={entry.error} />}
                </td>
                <td class="actions">
                  {granted(caps?.[`${base}/*`], 'delete') && (
                    <button type="button" onClick={() => drop(key)}>
                      Delete
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}

export function CloudMethodPage(props: { mount: string; tab: string }) {
  const { mount, tab } = props;
  return (
    <div>
      <h2>{mount}/ (cloud auth method)</h2>
      <Tabs mount={mount} tab={tab} />
      {tab === 'roles' && <Roles mount={mount} />}
      {tab === 'config' && <ClientConfig mount={mount} />}
      {tab === 'access-list' && <Entries mount={mount} path="identity-accesslist" what="access list" testid="access-list" />}
      {tab === 'deny-list' && <Entries mount={mount} path="roletag-denylist" what="deny list" testid="deny-list" />}
    </div>
  );
}

function RoleTag(props: { mount: string; role: string }) {
  const [tag, setTag] = useState<{ tag_key: string; tag_value: string }>();
  return (
    <div data-testid="role-tag">
      <h3>Make a role tag</h3>
      <p class="hint">A tag to set on an instance, narrowing what its logins under this role get.</p>
      <SchemaForm path={`auth/${props.mount}/role/${seg(props.role)}/tag`} idPrefix="tag" values={{}} create canWrite submitLabel="Make role tag" onSaved={(answer) => setTag((answer as { data: { tag_key: string; tag_value: string } }).data)} />
      {tag && (
        <dl class="facts" data-testid="role-tag-result">
          <dt>Tag key</dt>
          <dd>{tag.tag_key}</dd>
          <dt>Tag value</dt>
          <dd data-testid="role-tag-value">{tag.tag_value}</dd>
        </dl>
      )}
    </div>
  );
}

export function CloudRolePage(props: { mount: string; role: string }) {
  const { mount, role } = props;
  const path = `auth/${mount}/role/${seg(role)}`;
  const data = useRead(path, () => read<Record<string, unknown>>(path));
  const caps = useCapabilities([path, `${path}/tag`]);
  const [saved, setSaved] = useState(false);
  const [error, setError] = useState<Error>();
  const drop = async () => {
    try {
      await remove(path);
      navigate(`/secrets/methods/${seg(mount)}`);
    } catch (err) {
      setError(err as Error);
    }
  };
  return (
    <div>
      <p class="crumbs">
        <Link to={`/secrets/methods/${seg(mount)}`}>{mount}/</Link> › roles
      </p>
      <h2 data-testid="role-name">{role}</h2>
      {(data.error || error) && <Problem error={(data.error ?? error)!} />}
      {data.data && caps && (
        <>
          {saved && <p data-testid="role-saved">Saved.</p>}
          <SchemaForm
            key={data.answers}
            path={path}
            values={data.data}
            canWrite={mayWrite(caps[path], true)}
            submitLabel="Save role"
            onSaved={() => {
              setSaved(true);
              data.reload();
            }}
          />
          {granted(caps[path], 'delete') && (
            <p>
              <button type="button" onClick={drop}>
                Delete role
              </button>
            </p>
          )}
          {data.data.auth_type === 'ec2' && data.data.role_tag !== '' && mayWrite(caps[`${path}/tag`]) && <RoleTag mount={mount} role={role} />}
        </>
      )}
    </div>
  );
}
