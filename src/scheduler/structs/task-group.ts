/** A task group: the unit of placement; one allocation runs all of a group's tasks together. */
import type { Affinity, Constraint, Spread } from './constraint.js';
import type {
  DisconnectStrategy,
  EphemeralDisk,
  MigrateStrategy,
  ReschedulePolicy,
  RestartPolicy,
  ScalingPolicy,
  UpdateStrategy,
} from './policies.js';
import type { NetworkResource } from './resources.js';
import type { Service } from './service.js';
import type { Task } from './task.js';
import type { StructOf } from '../wire/job/fields.js';
import type { VOLUME_REQUEST } from '../wire/job/group.js';

export type VolumeRequest = StructOf<typeof VOLUME_REQUEST>;

export interface TaskGroup {
  Name: string;
  Count: number;
  Update: UpdateStrategy | null;
  Migrate: MigrateStrategy | null;
  Constraints: Constraint[] | null;
  Scaling: ScalingPolicy | null;
  RestartPolicy: RestartPolicy;
  Disconnect: DisconnectStrategy | null;
  Tasks: Task[];
  EphemeralDisk: EphemeralDisk;
  Meta: Record<string, string> | null;
  ReschedulePolicy: ReschedulePolicy | null;
  Affinities: Affinity[] | null;
  Spreads: Spread[] | null;
  Networks: NetworkResource[] | null;
  Consul: Record<string, unknown> | null;
  Services: Service[] | null;
  Volumes: Record<string, VolumeRequest> | null;
  ShutdownDelay: number | null;
  StopAfterClientDisconnect: number | null;
  MaxClientDisconnect: number | null;
  PreventRescheduleOnLost: boolean;
  MaxRunDuration: number | null;
}

