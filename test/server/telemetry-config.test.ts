/** The server configuration file's telemetry block, in each format, and what a wrong one is told. */
import { describe, expect, it } from 'vitest';
import { configFiles } from '../support/config-files.js';

const { load } = configFiles('svc-telemetry-');

describe('config file: telemetry { prometheus_metrics, disable_hostname, unauthenticated_metrics_access }', () => {
  it('reads it from HCL, YAML and JSON', async () => {
    const hcl = 'telemetry {\n  prometheus_metrics = true\n  disable_hostname = true\n  unauthenticated_metrics_access = false\n}\n';
    expect((await load('a.hcl', hcl)).telemetry).toEqual({ prometheusMetrics: true, disableHostname: true, unauthenticatedMetricsAccess: false });
    expect((await load('b.yaml', 'telemetry:\n  unauthenticated_metrics_access: true\n')).telemetry).toEqual({ unauthenticatedMetricsAccess: true });
    expect((await load('c.json', '{"telemetry": {"prometheus_metrics": true}}')).telemetry).toEqual({ prometheusMetrics: true });
    expect((await load('d.hcl', 'port = 1\n')).telemetry).toBeUndefined();
  });

  it('names the setting that is not true or false, and the one it does not know', async () => {
    await expect(load('e.hcl', 'telemetry {\n  prometheus_metrics = "yes"\n}\n')).rejects.toThrow('"telemetry.prometheus_metrics" must be true or false');
    await expect(load('f.hcl', 'telemetry {\n  disable_hostname = 1\n}\n')).rejects.toThrow('"telemetry.disable_hostname" must be true or false');
    await expect(load('g.hcl', 'telemetry {\n  statsd_address = "127.0.0.1:8125"\n}\n')).rejects.toThrow(
      'unknown setting "telemetry.statsd_address" (known: prometheus_metrics, disable_hostname, unauthenticated_metrics_access)',
    );
    await expect(load('h.hcl', 'telemetry = true\n')).rejects.toThrow('"telemetry" must be a block');
  });
});
