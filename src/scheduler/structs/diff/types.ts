/**
 * The structured job diff as Nomad puts it on the wire (plan `Diff`, versions `Diffs`).
 * Values are strings; empty lists are `null`, as Go encodes a nil slice.
 */

export type DiffType = 'None' | 'Added' | 'Deleted' | 'Edited';

export interface FieldDiff {
  Type: DiffType;
  Name: string;
  Old: string;
  New: string;
  /** plan only (`forces create`, …) */
  Annotations: string[] | null;
}

export interface ObjectDiff {
  Type: DiffType;
  Name: string;
  Fields: FieldDiff[] | null;
  Objects: ObjectDiff[] | null;
}

export interface TaskDiff {
  Type: DiffType;
  Name: string;
  Fields: FieldDiff[] | null;
  Objects: ObjectDiff[] | null;
  /** plan only (`forces in-place update`, …) */
  Annotations: string[] | null;
}

export interface TaskGroupDiff {
  Type: DiffType;
  Name: string;
  Fields: FieldDiff[] | null;
  Objects: ObjectDiff[] | null;
  Tasks: TaskDiff[] | null;
  /** plan only: count of allocations per update kind (`create`, `in-place update`, …) */
  Updates: Record<string, number> | null;
}

export interface JobDiff {
  Type: DiffType;
  ID: string;
  Fields: FieldDiff[] | null;
  Objects: ObjectDiff[] | null;
  TaskGroups: TaskGroupDiff[] | null;
}
