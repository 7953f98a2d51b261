/** Placement rules shared by jobs, groups and tasks. */

export interface Constraint {
  LTarget: string;
  RTarget: string;
  Operand: string;
}

export interface Affinity {
  LTarget: string;
  RTarget: string;
  Operand: string;
  /** −100..100, never 0; 50 when unset */
  Weight: number;
}

export interface SpreadTarget {
  Value: string;
  Percent: number;
}

export interface Spread {
  Attribute: string;
  Weight: number;
  SpreadTarget: SpreadTarget[] | null;
}

/** Every operand Nomad accepts; `is`/`not` and `set_contains` are aliases kept because job files use them. */
export const CONSTRAINT_OPERANDS = [
  '=',
  '==',
  'is',
  '!=',
  'not',
  '<',
  '<=',
  '>',
  '>=',
  'regexp',
  'version',
  'semver',
  'set_contains',
  'set_contains_all',
  'set_contains_any',
  'distinct_hosts',
  'distinct_property',
  'is_set',
  'is_not_set',
] as const;

export const AFFINITY_DEFAULT_WEIGHT = 50;
export const SPREAD_DEFAULT_WEIGHT = 50;
