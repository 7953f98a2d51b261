/** Service registrations and their health checks. */
import { field, NS } from './fields.js';

export const SERVICE_ADDRESS_MODES = ['auto', 'alloc', 'driver', 'host'] as const;
export const SERVICE_PROVIDERS = ['consul', 'nomad'] as const;
export const ON_UPDATE_MODES = ['require_healthy', 'ignore_warnings', 'ignore'] as const;
export const CHECK_TYPES = ['http', 'tcp', 'script', 'grpc'] as const;

export const CHECK_RESTART = {
  Limit: field('int', { hcl: 'limit' }),
  Grace: field('duration', { hcl: 'grace', default: NS.second }),
  IgnoreWarnings: field('bool', { hcl: 'ignore_warnings' }),
} as const;

/** Unset, a check's name is made from its service's, and its on_update is its service's. */
export const CHECK = {
  Name: field('string', { hcl: 'name' }),
  Type: field('string', { hcl: 'type', oneOf: CHECK_TYPES }),
  Command: field('string', { hcl: 'command' }),
  Args: field('strings', { hcl: 'args', nullable: true }),
  Path: field('string', { hcl: 'path' }),
  Protocol: field('string', { hcl: 'protocol' }),
  PortLabel: field('string', { hcl: 'port' }),
  Expose: field('bool', { hcl: 'expose' }),
  AddressMode: field('string', { hcl: 'address_mode' }),
  Advertise: field('string', { hcl: 'advertise' }),
  Interval: field('duration', { hcl: 'interval' }),
  Timeout: field('duration', { hcl: 'timeout' }),
  InitialStatus: field('string', { hcl: 'initial_status' }),
  Notes: field('string', { hcl: 'notes' }),
  TLSServerName: field('string', { hcl: 'tls_server_name' }),
  TLSSkipVerify: field('bool', { hcl: 'tls_skip_verify' }),
  // Also a `header {}` block of lists in job files.
  Header: field('stringListMap', { hcl: 'header', nullable: true }),
  Method: field('string', { hcl: 'method' }),
  Body: field('string', { hcl: 'body' }),
  CheckRestart: field({ obj: CHECK_RESTART }, { nullable: true }),
  GRPCService: field('string', { hcl: 'grpc_service' }),
  GRPCUseTLS: field('bool', { hcl: 'grpc_use_tls' }),
  TaskName: field('string', { hcl: 'task' }),
  SuccessBeforePassing: field('int', { hcl: 'success_before_passing' }),
  FailuresBeforeCritical: field('int', { hcl: 'failures_before_critical' }),
  FailuresBeforeWarning: field('int', { hcl: 'failures_before_warning' }),
  OnUpdate: field('string', { hcl: 'on_update' }),
} as const;

export const SERVICE_WEIGHTS = {
  Passing: field('int', { hcl: 'passing', default: 1 }),
  Warning: field('int', { hcl: 'warning', default: 1 }),
} as const;

/**
 * Unset, a service is named after its job, group and task, and its namespace is the job's when Nomad's own
 * registry holds it. Meta, canary meta and tagged addresses are also blocks in job files.
 */
export const SERVICE = {
  Name: field('string', { hcl: 'name' }),
  TaskName: field('string', { hcl: 'task' }),
  PortLabel: field('string', { hcl: 'port' }),
  AddressMode: field('string', { hcl: 'address_mode', default: 'auto', oneOf: SERVICE_ADDRESS_MODES }),
  Address: field('string', { hcl: 'address' }),
  Tags: field('strings', { hcl: 'tags', nullable: true }),
  CanaryTags: field('strings', { hcl: 'canary_tags', nullable: true }),
  EnableTagOverride: field('bool', { hcl: 'enable_tag_override' }),
  Checks: field({ list: CHECK }, { nullable: true }),
  // Applies to each of the service's checks, which may override it field by field.
  CheckRestart: field({ obj: CHECK_RESTART }, { inputOnly: true }),
  // Service-mesh settings, kept verbatim: svc has no mesh of its own.
  Connect: field('object', { nullable: true }),
  Meta: field('stringMap', { hcl: 'meta', nullable: true }),
  CanaryMeta: field('stringMap', { hcl: 'canary_meta', nullable: true }),
  TaggedAddresses: field('stringMap', { hcl: 'tagged_addresses', nullable: true }),
  OnUpdate: field('string', { hcl: 'on_update', default: 'require_healthy', oneOf: ON_UPDATE_MODES }),
  Provider: field('string', { hcl: 'provider', default: 'consul', oneOf: SERVICE_PROVIDERS }),
  Cluster: field('string', { hcl: 'cluster', default: 'default' }),
  Kind: field('string', { hcl: 'kind' }),
  // Consul reports an unset namespace as "default".
  Namespace: field('string', { default: 'default' }),
  Identity: field('object', { nullable: true }),
  Weights: field({ obj: SERVICE_WEIGHTS }, { nullable: true }),
} as const;
