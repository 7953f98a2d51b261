/**
 * The latest result of one service check, as a node keeps it and `GET /v1/allocation/:id/checks` serves
 * it (Nomad's CheckQueryResult): keyed by check ID in a map per allocation.
 */

export type CheckStatus = 'success' | 'failure' | 'pending';

/**
 * A healthiness check holds a deployment back while it fails; a readiness check (`on_update = "ignore"`)
 * only says whether the service wants traffic.
 */
export type CheckMode = 'healthiness' | 'readiness';

/** Fields in Nomad's order, which is the order they are marshalled in. */
export interface CheckQueryResult {
  ID: string;
  Mode: CheckMode;
  Status: CheckStatus;
  /** the HTTP status of an http check; absent when there is none */
  StatusCode?: number;
  Output: string;
  /** Unix seconds */
  Timestamp: number;
  /** the allocation's name, `<job>.<group>[<index>]` */
  Group: string;
  /** absent for the checks of group services */
  Task?: string;
  Service: string;
  Check: string;
}

export type AllocCheckResults = Record<string, CheckQueryResult>;
