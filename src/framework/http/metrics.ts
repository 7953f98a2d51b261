/**
 * Requests by side, method, route pattern and status code, with how long each took to answer (until its
 * status and headers; a stream's body may go on). The route is the pattern that answered
 * (`/v1/job/:job_id`), never the path, so the series stay as few as the routes.
 */
import { Histogram, type HistogramCell } from '../../shared/metrics/registry.js';

const LABELS = ['method', 'route', 'code'] as const;

/** The route label of a request no route answered (a 404, or a path that does not decode). */
export const UNMATCHED_ROUTE = 'unmatched';

/** route → method → status → cell: three lookups, nothing allocated or joined per request. */
type Cells = Map<string, Map<string, Map<number, HistogramCell>>>;

export class RequestMetrics {
  private readonly cells: Cells = new Map();

  constructor(private readonly series: Histogram) {}

  cell(method: string, route: string, status: number): HistogramCell {
    let byMethod = this.cells.get(route);
    if (!byMethod) this.cells.set(route, (byMethod = new Map()));
    let byStatus = byMethod.get(method);
    if (!byStatus) byMethod.set(method, (byStatus = new Map()));
    let cell = byStatus.get(status);
    if (!cell) byStatus.set(status, (cell = this.series.child(method, route, String(status))));
    return cell;
  }
}

export const schedulerRequests = new RequestMetrics(
  new Histogram('nomad.http.request', 'Scheduler API requests by method, route pattern and status code: how long each took to answer, in ms.', LABELS),
);

export const secretsRequests = new RequestMetrics(
  new Histogram('vault.core.handle_request', 'Secrets API requests by method, route pattern and status code: how long each took to answer, in ms.', LABELS),
);
