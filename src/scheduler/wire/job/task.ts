/** A task, and its own blocks: lifecycle, logs, artifacts, templates, vault, identities, secrets, mounts, actions. */
import { field, NS, typed } from './fields.js';
import { AFFINITY, CONSTRAINT } from './placement.js';
import { RESTART } from './policies.js';
import { RESOURCES } from './resources.js';
import { SERVICE } from './service.js';

export const LIFECYCLE_HOOKS = ['prestart', 'poststart', 'poststop'] as const;
export const GETTER_MODES = ['any', 'file', 'dir'] as const;
export const TEMPLATE_CHANGE_MODES = ['noop', 'restart', 'signal', 'script'] as const;
/** The audience of a task's default identity when it names none. */
export const DEFAULT_IDENTITY_AUDIENCE = 'nomadproject.io';

export const LIFECYCLE = {
  Hook: field('string', { hcl: 'hook', oneOf: LIFECYCLE_HOOKS }),
  Sidecar: field('bool', { hcl: 'sidecar' }),
} as const;

export const LOG_CONFIG = {
  MaxFiles: field('int', { hcl: 'max_files', default: 10 }),
  MaxFileSizeMB: field('int', { hcl: 'max_file_size', default: 10 }),
  Disabled: field('bool', { hcl: 'disabled' }),
} as const;

/** Unset, the destination is `local/`, or `local/<file>` for a file-mode artifact. Options and headers are also blocks. */
export const ARTIFACT = {
  GetterSource: field('string', { hcl: 'source' }),
  GetterOptions: field('stringMap', { hcl: 'options', nullable: true }),
  GetterHeaders: field('stringMap', { hcl: 'headers', nullable: true }),
  GetterMode: field('string', { hcl: 'mode', default: 'any', oneOf: GETTER_MODES }),
  GetterInsecure: field('bool', { hcl: 'insecure' }),
  RelativeDest: field('string', { hcl: 'destination' }),
  Chown: field('bool', { hcl: 'chown' }),
} as const;

export const CHANGE_SCRIPT = {
  Command: field('string', { hcl: 'command' }),
  Args: field('strings', { hcl: 'args', default: [] }),
  Timeout: field('duration', { hcl: 'timeout', default: 5 * NS.second }),
  FailOnError: field('bool', { hcl: 'fail_on_error' }),
} as const;

export const TEMPLATE_WAIT = {
  Min: field('duration', { hcl: 'min', nullable: true }),
  Max: field('duration', { hcl: 'max', nullable: true }),
} as const;

/** A signal change mode without a signal sends SIGHUP. */
export const TEMPLATE = {
  SourcePath: field('string', { hcl: 'source' }),
  DestPath: field('string', { hcl: 'destination' }),
  EmbeddedTmpl: field('string', { hcl: 'data' }),
  ChangeMode: field('string', { hcl: 'change_mode', default: 'restart', oneOf: TEMPLATE_CHANGE_MODES }),
  ChangeSignal: field('string', { hcl: 'change_signal' }),
  ChangeScript: field({ obj: CHANGE_SCRIPT }, { nullable: true }),
  Once: field('bool', { hcl: 'once' }),
  Splay: field('duration', { hcl: 'splay', default: 5 * NS.second }),
  Perms: field('string', { hcl: 'perms', default: '0644' }),
  Uid: field('int', { hcl: 'uid', nullable: true }),
  Gid: field('int', { hcl: 'gid', nullable: true }),
  LeftDelim: field('string', { hcl: 'left_delimiter', default: '{{' }),
  RightDelim: field('string', { hcl: 'right_delimiter', default: '}}' }),
  Envvars: field('bool', { hcl: 'env' }),
  VaultGrace: field('duration', { hcl: 'vault_grace' }),
  Wait: field({ obj: TEMPLATE_WAIT }, { nullable: true }),
  ErrMissingKey: field('bool', { hcl: 'error_on_missing_key' }),
} as const;

export const DISPATCH_PAYLOAD = {
  File: field('string', { hcl: 'file' }),
} as const;

export const VAULT = {
  Role: field('string', { hcl: 'role' }),
  Namespace: field('string', { hcl: 'namespace' }),
  Cluster: field('string', { hcl: 'cluster', default: 'default' }),
  Env: field('bool', { hcl: 'env', default: true }),
  DisableFile: field('bool', { hcl: 'disable_file' }),
  ChangeMode: field('string', { hcl: 'change_mode', default: 'restart' }),
  ChangeSignal: field('string', { hcl: 'change_signal', default: 'SIGHUP' }),
  AllowTokenExpiration: field('bool', { hcl: 'allow_token_expiration' }),
  // The policies of the task's own token, which the submitting token must hold (or be root).
  Policies: field('strings', { hcl: 'policies', nullable: true }),
} as const;

/** Unset, a task's identity is named "default" (with DEFAULT_IDENTITY_AUDIENCE); its extra identities are named. */
export const IDENTITY = {
  Name: field('string', { hcl: 'name' }),
  Audience: field('strings', { hcl: 'aud', nullable: true }),
  ChangeMode: field('string', { hcl: 'change_mode' }),
  ChangeSignal: field('string', { hcl: 'change_signal' }),
  Env: field('bool', { hcl: 'env' }),
  File: field('bool', { hcl: 'file' }),
  Filepath: field('string', { hcl: 'filepath' }),
  ServiceName: field('string', { hcl: 'service_name' }),
  TTL: field('duration', { hcl: 'ttl' }),
  ExtraClaims: field('stringMap', { hcl: 'extra_claims', nullable: true }),
} as const;

/** A job file names a secret by its block's label; its config and env are blocks. */
export const SECRET = {
  Name: field('string'),
  Provider: field('string', { hcl: 'provider' }),
  Path: field('string', { hcl: 'path' }),
  Config: field('object', { nullable: true }),
  Env: field('stringMap', { nullable: true }),
} as const;

export const VOLUME_MOUNT = {
  Volume: field('string', { hcl: 'volume' }),
  Destination: field('string', { hcl: 'destination' }),
  ReadOnly: field('bool', { hcl: 'read_only' }),
  PropagationMode: field('string', { hcl: 'propagation_mode', default: 'private' }),
  SELinuxLabel: field('string', { hcl: 'selinux_label' }),
} as const;

/** A job file names an action by its block's label. */
export const ACTION = {
  Name: field('string'),
  Command: field('string', { hcl: 'command' }),
  Args: field('strings', { hcl: 'args', nullable: true }),
} as const;

export const CRON_WINDOW = {
  Start: field('string', { hcl: 'start' }),
  End: field('string', { hcl: 'end' }),
  Timezone: field('string', { hcl: 'timezone' }),
} as const;

export const TASK_SCHEDULE = {
  Cron: field({ obj: CRON_WINDOW }, { nullable: true }),
} as const;

/**
 * Unset, a task's restart policy is its group's, its identity the default one, and an artifact's or
 * template's defaults are theirs. Config, env and meta are also blocks in job files.
 */
export const TASK = {
  Name: field('string'),
  Driver: field('string', { hcl: 'driver' }),
  User: field('string', { hcl: 'user' }),
  Config: field('object', { hcl: 'config', hclType: 'any', nullable: true }),
  Env: field('stringMap', { hcl: 'env', nullable: true }),
  Services: field({ list: SERVICE }, { nullable: true }),
  Vault: field({ obj: VAULT }, { nullable: true }),
  Consul: field('object', { nullable: true }),
  Templates: field({ list: TEMPLATE }, { nullable: true }),
  Constraints: field({ list: CONSTRAINT }, { nullable: true }),
  Affinities: field({ list: AFFINITY }, { nullable: true }),
  Resources: field({ obj: RESOURCES }),
  RestartPolicy: field({ obj: RESTART }),
  DispatchPayload: field({ obj: DISPATCH_PAYLOAD }, { nullable: true }),
  Lifecycle: field({ obj: LIFECYCLE }, { nullable: true }),
  Meta: field('stringMap', { hcl: 'meta', nullable: true }),
  KillTimeout: field('duration', { hcl: 'kill_timeout', default: 5 * NS.second }),
  LogConfig: field({ obj: LOG_CONFIG }),
  Artifacts: field({ list: ARTIFACT }, { nullable: true }),
  Leader: field('bool', { hcl: 'leader' }),
  ShutdownDelay: field('duration', { hcl: 'shutdown_delay' }),
  VolumeMounts: field({ list: VOLUME_MOUNT }, { nullable: true }),
  ScalingPolicies: field('any', { nullable: true, ...typed<Record<string, unknown>[]>() }),
  KillSignal: field('string', { hcl: 'kill_signal' }),
  Kind: field('string', { hcl: 'kind' }),
  CSIPluginConfig: field('object', { nullable: true }),
  Identity: field({ obj: IDENTITY }, { nullable: true }),
  Identities: field({ list: IDENTITY }, { nullable: true }),
  Actions: field({ list: ACTION }, { nullable: true }),
  Schedule: field({ obj: TASK_SCHEDULE }, { nullable: true }),
  Secrets: field({ list: SECRET }, { nullable: true }),
} as const;
