/** Placement rules shared by jobs, groups and tasks: constraints, affinities and spreads. */
import { field } from './fields.js';

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

/** A job file's operator defaults to `=`; the job's JSON keeps an unset operand empty, which validation refuses. */
export const CONSTRAINT = {
  LTarget: field('string', { hcl: 'attribute' }),
  RTarget: field('string', { hcl: 'value' }),
  Operand: field('string', { hcl: 'operator', oneOf: CONSTRAINT_OPERANDS }),
} as const;

export const AFFINITY = {
  ...CONSTRAINT,
  // Never 0: an affinity that weighs nothing is refused.
  Weight: field('int', { hcl: 'weight', default: 50, min: -100, max: 100 }),
} as const;

export const SPREAD_TARGET = {
  Value: field('string', { hcl: 'value' }),
  Percent: field('int', { hcl: 'percent' }),
} as const;

/** Targets are `target "<value>" {}` blocks in job files. */
export const SPREAD = {
  Attribute: field('string', { hcl: 'attribute' }),
  Weight: field('int', { hcl: 'weight', default: 50, max: 100 }),
  SpreadTarget: field({ list: SPREAD_TARGET }, { nullable: true }),
} as const;
