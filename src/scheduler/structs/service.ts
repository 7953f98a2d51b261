/** Service registrations and their health checks, as their field tables declare them. */
import type { StructOf } from '../wire/job/fields.js';
import type { CHECK, CHECK_RESTART, SERVICE } from '../wire/job/service.js';

export type CheckRestart = StructOf<typeof CHECK_RESTART>;
export type ServiceCheck = StructOf<typeof CHECK>;
export type Service = StructOf<typeof SERVICE>;
