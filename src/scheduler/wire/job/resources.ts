/** What a task asks of a node, and the group's network. */
import { field } from './fields.js';
import { AFFINITY, CONSTRAINT } from './placement.js';

export const NUMA_AFFINITIES = ['none', 'prefer', 'require'] as const;

/** A job file names a port by its block's label; one with a static value is reserved, the rest are dynamic. */
export const PORT = {
  Label: field('string'),
  // The host port; 0 for a dynamic port until it is allocated.
  Value: field('int', { hcl: 'static' }),
  // The port inside the task's network namespace; −1 means "same as the host port".
  To: field('int', { hcl: 'to' }),
  HostNetwork: field('string', { hcl: 'host_network', default: 'default' }),
  IgnoreCollision: field('bool', { hcl: 'ignore_collision' }),
} as const;

export const DNS = {
  Servers: field('strings', { hcl: 'servers', nullable: true }),
  Searches: field('strings', { hcl: 'searches', nullable: true }),
  Options: field('strings', { hcl: 'options', nullable: true }),
} as const;

export const CNI = {
  Args: field('stringMap', { hcl: 'args', nullable: true }),
} as const;

export const NETWORK = {
  Mode: field('string', { hcl: 'mode', default: 'host' }),
  Device: field('string', { hcl: 'device' }),
  CIDR: field('string', { hcl: 'cidr' }),
  IP: field('string', { hcl: 'ip' }),
  Hostname: field('string', { hcl: 'hostname' }),
  MBits: field('int', { hcl: 'mbits' }),
  DNS: field({ obj: DNS }, { nullable: true }),
  ReservedPorts: field({ list: PORT }, { nullable: true }),
  DynamicPorts: field({ list: PORT }, { nullable: true }),
  CNI: field({ obj: CNI }, { nullable: true }),
} as const;

/** A job file names a device by its block's label. */
export const DEVICE = {
  Name: field('string'),
  Count: field('int', { hcl: 'count', default: 1 }),
  Constraints: field({ list: CONSTRAINT }, { nullable: true }),
  Affinities: field({ list: AFFINITY }, { nullable: true }),
} as const;

export const NUMA = {
  Affinity: field('string', { hcl: 'affinity', default: 'none', oneOf: NUMA_AFFINITIES }),
  Devices: field('strings', { hcl: 'devices', nullable: true }),
} as const;

export const RESOURCES = {
  // MHz; asking for whole cores replaces the default, as a task pinned to cores has no shared CPU share.
  CPU: field('int', { hcl: 'cpu', default: 100 }),
  Cores: field('int', { hcl: 'cores' }),
  MemoryMB: field('int', { hcl: 'memory', default: 300 }),
  MemoryMaxMB: field('int', { hcl: 'memory_max' }),
  DiskMB: field('int', { hcl: 'disk' }),
  IOPS: field('int', { hcl: 'iops' }),
  Networks: field({ list: NETWORK }, { nullable: true }),
  Devices: field({ list: DEVICE }, { nullable: true }),
  NUMA: field({ obj: NUMA }, { nullable: true }),
  SecretsMB: field('int', { hcl: 'secrets' }),
} as const;
