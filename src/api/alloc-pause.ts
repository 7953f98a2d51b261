/** A task's pause schedule (scheduler API): read its ScheduleState, or override it. */
import type { ApiClient } from './http/client.js';

const ns = (namespace?: string): Record<string, string> => (namespace ? { namespace } : {});
const pausePath = (id: string) => `/v1/client/allocation/${encodeURIComponent(id)}/pause`;

/** `pause`, `run`, or `scheduled` (removes the override). */
export type PauseInput = 'pause' | 'run' | 'scheduled';

/** "" (running), force_run, force_pause, scheduled_pause or schedule_resume. */
export async function getPauseState(client: ApiClient, allocId: string, task: string, namespace?: string): Promise<string> {
  const { body } = await client.scheduler<{ ScheduleState: string }>('GET', pausePath(allocId), { query: { ...ns(namespace), task } });
  return body.ScheduleState;
}

export async function setPauseState(client: ApiClient, allocId: string, task: string, state: PauseInput, namespace?: string): Promise<void> {
  await client.scheduler('POST', pausePath(allocId), { query: ns(namespace), body: { Task: task, ScheduleState: state } });
}
