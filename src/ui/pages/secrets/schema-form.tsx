/**
 * A form generated from the field schema a secrets path declares: the server's own answer to
 * `?help=1` (its OpenAPI document) gives each field's type, allowed values, default and help text, so
 * the form cannot drift from what the server accepts. Values go to the server as typed; what it refuses
 * comes back as its 400, shown at the field the message names.
 */
import { useState } from 'preact/hooks';
import { ApiError, call } from '../../api.js';
import { Problem } from '../problem.js';
import { items, useRead } from './vault.js';

export interface FieldSpec {
  type: 'string' | 'integer' | 'boolean' | 'array' | 'object';
  description?: string;
  format?: string;
  enum?: string[];
  items?: { enum?: string[] };
  default?: unknown;
  deprecated?: boolean;
  'x-svc-sensitive'?: boolean;
}

interface Help {
  openapi: { paths: Record<string, { post?: { requestBody?: { content: { 'application/json': { schema: { properties: Record<string, FieldSpec>; required?: string[] } } } } } }> };
}

/** The writable fields of a path (deprecated aliases left out), in the order the server lists them. */
export async function fieldsOf(path: string): Promise<Record<string, FieldSpec>> {
  const { data } = await call<Help>(`/v1/${path}`, { query: { help: '1' } });
  const item = Object.values(data.openapi.paths)[0];
  const props = item?.post?.requestBody?.content['application/json'].schema.properties ?? {};
  return Object.fromEntries(Object.entries(props).filter(([, spec]) => !spec.deprecated));
}

/** The field a server's message is about: the longest field name it quotes. */
export function fieldNamed(message: string, names: string[]): string | undefined {
  return names
    .filter((n) => message.includes(`"${n}"`) || message.includes(`'${n}'`) || new RegExp(`\\b${n}\\b`).test(message))
    .sort((a, b) => b.length - a.length)[0];
}

/** What the form shows for a value the server answered. */
function shown(spec: FieldSpec, value: unknown): string {
  if (value === undefined || value === null) return '';
  if (spec.type === 'array') return Array.isArray(value) ? value.join(', ') : String(value);
  if (spec.type === 'object') return JSON.stringify(value);
  return String(value);
}

/** What is sent for what the form holds: lists split on commas, whole numbers as numbers, the rest as typed. */
function sent(spec: FieldSpec, text: string): unknown {
  if (spec.type === 'array') return items(text);
  if (spec.type === 'integer' && /^-?\d+$/.test(text.trim())) return Number(text.trim());
  if (spec.type === 'object') {
    try {
      return JSON.parse(text);
    } catch {
      return text;
    }
  }
  return text;
}

export function SchemaForm(props: {
  /** the path the form is written to, without /v1/ */
  path: string;
  /** a path of the same declaration to read the fields from, when `path` is still being typed */
  fieldsPath?: string;
  /** the values read from the server; empty for a new object */
  values: Record<string, unknown>;
  /** false hides the save button and makes every field read only */
  canWrite: boolean;
  submitLabel: string;
  /** what the inputs' ids and test ids start with, for a second form on the page (default `field`) */
  idPrefix?: string;
  /** a new object: the fields show the schema's defaults until changed */
  create?: boolean;
  onSaved(answer: unknown): void;
}) {
  const helpPath = props.fieldsPath ?? props.path;
  const fields = useRead(helpPath, () => fieldsOf(helpPath));
  const [edits, setEdits] = useState<Record<string, string | boolean>>({});
  const [errors, setErrors] = useState<{ field: Record<string, string>; general?: string }>({ field: {} });
  const [busy, setBusy] = useState(false);

  if (fields.error) return <Problem error={fields.error} />;
  if (!fields.data) return <p class="muted">Loading…</p>;
  const specs = fields.data;
  const prefix = props.idPrefix ?? 'field';
  const names = Object.keys(specs);

  const valueOf = (name: string): string | boolean => {
    if (name in edits) return edits[name];
    const spec = specs[name];
    const v = props.values[name] ?? (props.create ? spec.default : undefined);
    return spec.type === 'boolean' ? v === true : shown(spec, v);
  };

  const submit = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    setErrors({ field: {} });
    const body: Record<string, unknown> = {};
    // Only what the user changed: the server fills in the rest (its defaults for a new object), and
    // a field the form did not touch cannot trip a rule about fields that do not apply.
    for (const name of Object.keys(edits)) {
      const v = edits[name];
      body[name] = specs[name].type === 'boolean' ? v === true : sent(specs[name], String(v));
    }
    try {
      const { data } = await call<unknown>(`/v1/${props.path}`, { method: 'POST', body });
      setEdits({});
      props.onSaved(data);
    } catch (err) {
      const message = (err as Error).message;
      const field = err instanceof ApiError && err.status === 400 ? fieldNamed(message, names) : undefined;
      setErrors(field ? { field: { [field]: message } } : { field: {}, general: message });
    } finally {
      setBusy(false);
    }
  };

  return (
    <form class="schema-form" onSubmit={submit} data-testid="schema-form">
      {errors.general && (
        <p class="error" role="alert">
          {errors.general}
        </p>
      )}
      {names.map((name) => {
        const spec = specs[name];
        const id = `${prefix}-${name}`;
        const value = valueOf(name);
        const set = (v: string | boolean) => setEdits((old) => ({ ...old, [name]: v }));
        const choices = spec.enum ?? (spec.type === 'array' ? undefined : spec.items?.enum);
        let input;
        if (spec.type === 'boolean') {
          input = <input id={id} name={name} type="checkbox" checked={value === true} disabled={!props.canWrite} onChange={(e) => set((e.target as HTMLInputElement).checked)} />;
        } else if (choices) {
          input = (
            <select id={id} name={name} value={String(value)} disabled={!props.canWrite} onChange={(e) => set((e.target as HTMLSelectElement).value)}>
              {!choices.includes(String(value)) && <option value={String(value)}>{String(value) || '(not set)'}</option>}
              {choices.map((c) => (
                <option key={c} value={c}>
                  {c}
                </option>
              ))}
            </select>
          );
        } else {
          input = (
            <input
              id={id}
              name={name}
              type={spec['x-svc-sensitive'] ? 'password' : 'text'}
              autocomplete="off"
              value={String(value)}
              readOnly={!props.canWrite}
              placeholder={spec.type === 'array' ? 'comma-separated' : spec.format === 'duration' ? 'e.g. 30m, 24h or seconds' : ''}
              onInput={(e) => set((e.target as HTMLInputElement).value)}
            />
          );
        }
        return (
          <div key={name} class={`field${errors.field[name] ? ' field-bad' : ''}`} data-testid={`${prefix}-${name}`}>
            <label for={id}>{name}</label>
            {input}
            {errors.field[name] && (
              <p class="field-error" role="alert" data-testid={`${prefix}-error-${name}`}>
                {errors.field[name]}
              </p>
            )}
            {spec.description && <p class="hint">{spec.description}</p>}
          </div>
        );
      })}
      {props.canWrite && (
        <button type="submit" disabled={busy}>
          {props.submitLabel}
        </button>
      )}
    </form>
  );
}
