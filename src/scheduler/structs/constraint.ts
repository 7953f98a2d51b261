/** Placement rules shared by jobs, groups and tasks, as their field tables declare them. */
import type { StructOf } from '../wire/job/fields.js';
import type { AFFINITY, CONSTRAINT, SPREAD, SPREAD_TARGET } from '../wire/job/placement.js';

export type Constraint = StructOf<typeof CONSTRAINT>;
export type Affinity = StructOf<typeof AFFINITY>;
export type SpreadTarget = StructOf<typeof SPREAD_TARGET>;
export type Spread = StructOf<typeof SPREAD>;
