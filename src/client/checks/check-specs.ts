/**
 * The checks a node runs for an allocation: every http, tcp and script check of every group and task
 * service of its group. Services of both providers count: svc registers plain (Consul-provider) service
 * blocks in its own registry, so it runs their checks too. grpc checks need a gRPC client svc does not
 * have: they are not run, and do not appear.
 */
import type { ClientAlloc } from '../types.js';
import type { Service, ServiceCheck } from '../../scheduler/structs/service.js';
import { nomadCheckId } from './check-id.js';

export const RUNNABLE_CHECK_TYPES = ['http', 'tcp', 'script'] as const;

export interface CheckSpec {
  id: string;
  service: Service;
  check: ServiceCheck;
  /** the check's task: where a script runs, and whose (re)starts start and stop the check; "" for a group service's */
  task: string;
  /** a group service's check: it runs while the allocation does, and check_restart restarts every task */
  groupService: boolean;
}

export function checkSpecs(alloc: ClientAlloc): CheckSpec[] {
  const group = alloc.Job.TaskGroups.find((g) => g.Name === alloc.TaskGroup);
  if (!group) return [];
  const owned: Array<{ service: Service; task: string }> = [
    ...(group.Services ?? []).map((service) => ({ service, task: '' })),
    ...group.Tasks.flatMap((t) => (t.Services ?? []).map((service) => ({ service, task: t.Name }))),
  ];
  return owned.flatMap(({ service, task }) =>
    (service.Checks ?? [])
      .filter((check) => (RUNNABLE_CHECK_TYPES as readonly string[]).includes(check.Type.toLowerCase()))
      .map((check) => {
        const checkTask = check.TaskName || task;
        return { id: nomadCheckId(alloc.ID, alloc.TaskGroup, checkTask, check), service, check, task: checkTask, groupService: task === '' };
      }),
  );
}
