/**
 * A job diff (a plan's Diff, a version's Diffs entry) as a tree of what changed, marked as `job plan`
 * prints it: `+` added, `-` deleted, `~` edited. Unchanged fields and objects are left out, so a
 * one-field change reads as one line under the objects that hold it. The plan's annotations (`forces
 * create`, a group's update counts) ride along on their rows.
 */
import type { ComponentChildren } from 'preact';
import type { DiffType, FieldDiff, JobDiff, ObjectDiff, TaskDiff, TaskGroupDiff } from './job-types.js';

const MARK: Record<DiffType, string> = { Added: '+', Deleted: '-', Edited: '~', None: ' ' };

const changed = (d: { Type: DiffType }) => d.Type !== 'None';

function Annotations(props: { notes: string[] | null | undefined }) {
  if (!props.notes || props.notes.length === 0) return null;
  return <span class="diff-note"> ({props.notes.join(', ')})</span>;
}

function Field(props: { field: FieldDiff }) {
  const f = props.field;
  return (
    <li class={`diff-${f.Type.toLowerCase()}`} data-diff-field={f.Name}>
      <span class="diff-mark">{MARK[f.Type]}</span> <span class="diff-name">{f.Name}</span>:{' '}
      {f.Type === 'Edited' && (
        <>
          <span class="diff-old">{JSON.stringify(f.Old)}</span> =&gt; <span class="diff-new">{JSON.stringify(f.New)}</span>
        </>
      )}
      {f.Type === 'Added' && <span class="diff-new">{JSON.stringify(f.New)}</span>}
      {f.Type === 'Deleted' && <span class="diff-old">{JSON.stringify(f.Old)}</span>}
      <Annotations notes={f.Annotations} />
    </li>
  );
}

/** The changed fields and objects below one node of the tree. */
function Children(props: { fields: FieldDiff[] | null; objects: ObjectDiff[] | null; children?: ComponentChildren }) {
  const fields = (props.fields ?? []).filter(changed);
  const objects = (props.objects ?? []).filter(changed);
  if (fields.length === 0 && objects.length === 0 && !props.children) return null;
  return (
    <ul>
      {fields.map((f) => (
        <Field key={`f-${f.Name}`} field={f} />
      ))}
      {objects.map((o, i) => (
        <Node key={`o-${o.Name}-${i}`} type={o.Type} label={o.Name}>
          <Children fields={o.Fields} objects={o.Objects} />
        </Node>
      ))}
      {props.children}
    </ul>
  );
}

function Node(props: { type: DiffType; label: string; testid?: string; children?: ComponentChildren; notes?: string[] | null }) {
  return (
    <li class={`diff-${props.type.toLowerCase()}`} data-testid={props.testid}>
      <span class="diff-mark">{MARK[props.type]}</span> <span class="diff-name">{props.label}</span>
      <Annotations notes={props.notes} />
      {props.children}
    </li>
  );
}

const updateNotes = (updates: Record<string, number> | null) =>
  Object.entries(updates ?? {})
    .filter(([, n]) => n > 0)
    .map(([kind, n]) => `${n} ${kind}`);

function Task(props: { task: TaskDiff }) {
  const t = props.task;
  return (
    <Node type={t.Type} label={`Task: ${JSON.stringify(t.Name)}`} notes={t.Annotations}>
      <Children fields={t.Fields} objects={t.Objects} />
    </Node>
  );
}

function Group(props: { group: TaskGroupDiff }) {
  const g = props.group;
  const notes = updateNotes(g.Updates);
  const tasks = (g.Tasks ?? []).filter(changed);
  return (
    <Node type={g.Type} label={`Task Group: ${JSON.stringify(g.Name)}`} notes={notes.length > 0 ? notes : null} testid={`diff-group-${g.Name}`}>
      <Children fields={g.Fields} objects={g.Objects}>
        {tasks.map((t) => (
          <Task key={t.Name} task={t} />
        ))}
      </Children>
    </Node>
  );
}

/** A job diff's tree; says so when nothing changed. */
export function DiffTree(props: { diff: JobDiff | null | undefined }) {
  const d = props.diff;
  // Groups whose allocations the plan would touch are shown even when their spec did not change.
  const groups = (d?.TaskGroups ?? []).filter((g) => changed(g) || updateNotes(g.Updates).length > 0);
  if (!d || (!changed(d) && groups.length === 0)) {
    return (
      <p class="muted" data-testid="diff">
        No changes.
      </p>
    );
  }
  return (
    <ul class="diff" data-testid="diff">
      <Node type={d.Type} label={`Job: ${JSON.stringify(d.ID)}`}>
        <Children fields={d.Fields} objects={d.Objects}>
          {groups.map((g) => (
            <Group key={g.Name} group={g} />
          ))}
        </Children>
      </Node>
    </ul>
  );
}
