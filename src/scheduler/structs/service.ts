/** Service registrations and their health checks. */

export interface CheckRestart {
  Limit: number;
  Grace: number;
  IgnoreWarnings: boolean;
}

export interface ServiceCheck {
  Name: string;
  Type: string;
  Command: string;
  Args: string[] | null;
  Path: string;
  Protocol: string;
  PortLabel: string;
  Expose: boolean;
  AddressMode: string;
  Advertise: string;
  Interval: number;
  Timeout: number;
  InitialStatus: string;
  Notes: string;
  TLSServerName: string;
  TLSSkipVerify: boolean;
  Header: Record<string, string[]> | null;
  Method: string;
  Body: string;
  CheckRestart: CheckRestart | null;
  GRPCService: string;
  GRPCUseTLS: boolean;
  TaskName: string;
  SuccessBeforePassing: number;
  FailuresBeforeCritical: number;
  FailuresBeforeWarning: number;
  OnUpdate: string;
}

export interface Service {
  Name: string;
  TaskName: string;
  PortLabel: string;
  AddressMode: string;
  Address: string;
  Tags: string[] | null;
  CanaryTags: string[] | null;
  EnableTagOverride: boolean;
  Checks: ServiceCheck[] | null;
  /** service-mesh settings, kept verbatim: svc has no mesh of its own */
  Connect: Record<string, unknown> | null;
  Meta: Record<string, string> | null;
  CanaryMeta: Record<string, string> | null;
  TaggedAddresses: Record<string, string> | null;
  OnUpdate: string;
  Provider: string;
  Cluster: string;
  Kind: string;
  Namespace: string;
  Identity: Record<string, unknown> | null;
  Weights: { Passing: number; Warning: number } | null;
}

export const SERVICE_ADDRESS_MODES = ['auto', 'alloc', 'driver', 'host'] as const;
export const SERVICE_PROVIDERS = ['consul', 'nomad'] as const;
export const ON_UPDATE_MODES = ['require_healthy', 'ignore_warnings', 'ignore'] as const;
export const CHECK_TYPES = ['http', 'tcp', 'script', 'grpc'] as const;
export const CHECK_RESTART_DEFAULT_GRACE = 1_000_000_000;
