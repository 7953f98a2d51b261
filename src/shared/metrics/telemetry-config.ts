/** The server's `telemetry` block, as Nomad's and Vault's (their defaults too). */
export interface TelemetryConfig {
  /** GET /v1/metrics?format=prometheus and /v1/sys/metrics?format=prometheus answer (Nomad's prometheus_metrics; default off) */
  prometheusMetrics: boolean;
  /** gauges are not named after the host (`nomad.<host>.runtime.alloc_bytes`); default false, as upstream */
  disableHostname: boolean;
  /** both metrics endpoints answer without a token (Vault's listener option unauthenticated_metrics_access) */
  unauthenticatedMetricsAccess: boolean;
}

export const DEFAULT_TELEMETRY: TelemetryConfig = { prometheusMetrics: false, disableHostname: false, unauthenticatedMetricsAccess: false };
