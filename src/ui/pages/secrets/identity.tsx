/**
 * /ui/secrets/identity: the identity store's entities, their aliases (an entity's name at one auth
 * method) and groups: listed, created, deleted, each action shown only when the token may take it.
 */
import { useState } from 'preact/hooks';
import { granted, useCapabilities } from '../../acl.js';
import { Link } from '../../router.js';
import { ConfirmButton } from '../../confirm.js';
import { Problem } from '../problem.js';
import type { AliasInfo, MountEntry } from './types.js';
import { items, list, mayWrite, read, remove, useRead, write } from './vault.js';

function Tabs(props: { tab: string }) {
  const tabs = [
    ['entities', 'Entities'],
    ['aliases', 'Aliases'],
    ['groups', 'Groups'],
  ];
  return (
    <nav class="tabs subtabs">
      {tabs.map(([id, label]) => (
        <Link key={id} to={`/secrets/identity?tab=${id}`} class={props.tab === id ? 'active' : undefined}>
          {label}
        </Link>
      ))}
    </nav>
  );
}

/** A create form of text inputs; `send` turns what was typed into the request's body. */
function CreateForm(props: { testid: string; fields: Array<{ name: string; label: string; hint?: string; choices?: Array<[string, string]> }>; submitLabel: string; path: string; send(values: Record<string, string>): unknown; onDone(): void }) {
  const [values, setValues] = useState<Record<string, string>>({});
  const [error, setError] = useState<Error>();
  const submit = async (e: Event) => {
    e.preventDefault();
    setError(undefined);
    try {
      await write(props.path, props.send(values));
      setValues({});
      props.onDone();
    } catch (err) {
      setError(err as Error);
    }
  };
  return (
    <form onSubmit={submit} data-testid={props.testid}>
      {props.fields.map((f) => (
        <span key={f.name} class="inline-field">
          <label for={`${props.testid}-${f.name}`}>{f.label}</label>
          {f.choices ? (
            <select id={`${props.testid}-${f.name}`} value={values[f.name] ?? ''} onChange={(e) => setValues({ ...values, [f.name]: (e.target as HTMLSelectElement).value })}>
              <option value="">(choose)</option>
              {f.choices.map(([value, label]) => (
                <option key={value} value={value}>
                  {label}
                </option>
              ))}
            </select>
          ) : (
            <input id={`${props.testid}-${f.name}`} class="short" value={values[f.name] ?? ''} placeholder={f.hint} onInput={(e) => setValues({ ...values, [f.name]: (e.target as HTMLInputElement).value })} />
          )}
        </span>
      ))}
      <button type="submit">{props.submitLabel}</button>
      {error && <Problem error={error} />}
    </form>
  );
}

/** Deletes after asking, on the page; a refusal is shown beside the question. */
function DeleteButton(props: { path: string; what: string; testid: string; onDone(): void }) {
  return (
    <ConfirmButton
      label="Delete"
      question={`Delete ${props.what}?`}
      confirmLabel="Delete"
      danger
      testid={props.testid}
      onConfirm={async () => {
        await remove(props.path);
        props.onDone();
      }}
    />
  );
}

function Entities() {
  const entities = useRead('entities', () => list<{ name: string }>('identity/entity/id'));
  const caps = useCapabilities(['identity/entity', 'identity/entity/id/*']);
  const keys = entities.data?.keys ?? [];
  return (
    <div>
      {entities.error && <Problem error={entities.error} />}
      {entities.data && keys.length === 0 && <p class="muted">No entities.</p>}
      {keys.length > 0 && (
        <table class="list" data-testid="entities">
          <thead>
            <tr>
              <th>Name</th>
              <th>ID</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {keys.map((id) => (
              <tr key={id}>
                <td>{entities.data?.key_info?.[id]?.name}</td>
                <td>{id}</td>
                <td class="actions">{granted(caps?.['identity/entity/id/*'], 'delete') && <DeleteButton path={`identity/entity/id/${encodeURIComponent(id)}`} what={`entity ${entities.data?.key_info?.[id]?.name ?? id}`} testid={`delete-entity-${id}`} onDone={entities.reload} />}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {mayWrite(caps?.['identity/entity']) && (
        <>
          <h3>New entity</h3>
          <CreateForm
            testid="create-entity"
            path="identity/entity"
            fields={[
              { name: 'name', label: 'Name' },
              { name: 'policies', label: 'Policies', hint: 'comma-separated' },
            ]}
            submitLabel="Create entity"
            send={(v) => ({ name: v.name ?? '', policies: items(v.policies ?? '') })}
            onDone={entities.reload}
          />
        </>
      )}
    </div>
  );
}

function Aliases() {
  const aliases = useRead('aliases', () => list<AliasInfo>('identity/entity-alias/id'));
  const entities = useRead('entities', () => list<{ name: string }>('identity/entity/id'));
  const methods = useRead('sys/auth', () => read<Record<string, MountEntry>>('sys/auth').catch(() => ({}) as Record<string, MountEntry>));
  const caps = useCapabilities(['identity/entity-alias', 'identity/entity-alias/id/*']);
  const keys = aliases.data?.keys ?? [];
  const entityName = (id: string) => entities.data?.key_info?.[id]?.name ?? id;
  return (
    <div>
      {aliases.error && <Problem error={aliases.error} />}
      {aliases.data && keys.length === 0 && <p class="muted">No aliases.</p>}
      {keys.length > 0 && (
        <table class="list" data-testid="aliases">
          <thead>
            <tr>
              <th>Name</th>
              <th>Entity</th>
              <th>Auth method</th>
              <th>ID</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {keys.map((id) => {
              const info = aliases.data?.key_info?.[id];
              return (
                <tr key={id}>
                  <td>{info?.name}</td>
                  <td>{info ? entityName(info.canonical_id) : ''}</td>
                  <td>{info?.mount_path ?? info?.mount_accessor}</td>
                  <td>{id}</td>
                  <td class="actions">{granted(caps?.['identity/entity-alias/id/*'], 'delete') && <DeleteButton path={`identity/entity-alias/id/${encodeURIComponent(id)}`} what="this alias" testid={`delete-alias-${id}`} onDone={aliases.reload} />}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      {mayWrite(caps?.['identity/entity-alias']) && (
        <>
          <h3>New alias</h3>
          <CreateForm
            testid="create-alias"
            path="identity/entity-alias"
            fields={[
              { name: 'name', label: 'Name' },
              { name: 'canonical_id', label: 'Entity', choices: (entities.data?.keys ?? []).map((id) => [id, entityName(id)]) },
              { name: 'mount_accessor', label: 'Auth method', choices: Object.entries(methods.data ?? {}).map(([path, m]) => [m.accessor, `${path} (${m.type})`]) },
            ]}
            submitLabel="Create alias"
            send={(v) => v}
            onDone={aliases.reload}
          />
        </>
      )}
    </div>
  );
}

function Groups() {
  const groups = useRead('groups', () => list<{ name: string; num_member_entities?: number }>('identity/group/id'));
  const caps = useCapabilities(['identity/group', 'identity/group/id/*']);
  const keys = groups.data?.keys ?? [];
  return (
    <div>
      {groups.error && <Problem error={groups.error} />}
      {groups.data && keys.length === 0 && <p class="muted">No groups.</p>}
      {keys.length > 0 && (
        <table class="list" data-testid="groups">
          <thead>
            <tr>
              <th>Name</th>
              <th>Members</th>
              <th>ID</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {keys.map((id) => (
              <tr key={id}>
                <td>{groups.data?.key_info?.[id]?.name}</td>
                <td>{groups.data?.key_info?.[id]?.num_member_entities ?? 0}</td>
                <td>{id}</td>
                <td class="actions">{granted(caps?.['identity/group/id/*'], 'delete') && <DeleteButton path={`identity/group/id/${encodeURIComponent(id)}`} what="this group" testid={`delete-group-${id}`} onDone={groups.reload} />}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {mayWrite(caps?.['identity/group']) && (
        <>
          <h3>New group</h3>
          <CreateForm
            testid="create-group"
            path="identity/group"
            fields={[
              { name: 'name', label: 'Name' },
              { name: 'policies', label: 'Policies', hint: 'comma-separated' },
              { name: 'member_entity_ids', label: 'Member entity IDs', hint: 'comma-separated' },
            ]}
            submitLabel="Create group"
            send={(v) => ({ name: v.name ?? '', policies: items(v.policies ?? ''), member_entity_ids: items(v.member_entity_ids ?? '') })}
            onDone={groups.reload}
          />
        </>
      )}
    </div>
  );
}

export function IdentityPage(props: { tab: string }) {
  return (
    <div>
      <h2>Identity</h2>
      <Tabs tab={props.tab} />
      {props.tab === 'entities' && <Entities />}
      {props.tab === 'aliases' && <Aliases />}
      {props.tab === 'groups' && <Groups />}
    </div>
  );
}
