/**
 * Command and flag declarations. A command is declared once; the same declaration drives argv parsing,
 * `-help`, the man pages and the shell completions (src/cli/docs/).
 */
import type { CompletionKind } from '../shared/completion-kinds.js';
import type { Io } from './io.js';

export type FlagType =
  | 'bool'
  | 'string'
  | 'int'
  /** seconds or a duration string; kept as the string the user typed */
  | 'duration'
  /** repeatable: every occurrence is collected, in order */
  | 'strings';

export interface FlagSpec {
  name: string;
  type: FlagType;
  description: string;
  default?: string | number | boolean | string[];
  /** environment variable read when the flag is not given */
  env?: string;
  /** Nomad's and Vault's variables for the same setting, read when `env` is unset (src/cli/flags/env-names.ts) */
  upstreamEnv?: { nomad?: string; vault?: string };
  /** other names, without dashes; a one-letter alias may be combined with others (`-it`) */
  aliases?: string[];
  /** what is wrong with a value (typed or from the environment), or undefined when it is fine */
  check?: (text: string) => string | undefined;
  /** allowed values, used for validation and completion */
  choices?: readonly string[];
  /** values completion offers that the command checks itself, with its own message (as ArgSpec.choices) */
  suggestions?: readonly string[];
  /** help section heading; defaults to "Command Options" */
  group?: string;
  /** what completion should offer for the value: a file, or a dynamic kind resolved by `svc __complete` */
  complete?: CompletionKind;
  hidden?: boolean;
}

export interface ArgSpec {
  name: string;
  description: string;
  required?: boolean;
  /** collects this and every later positional argument */
  variadic?: boolean;
  complete?: FlagSpec['complete'];
  /** the values completion offers (the command itself checks them) */
  choices?: readonly string[];
  /** K=V arguments: what completion offers after `K=`, by key */
  pairs?: Record<string, { complete?: CompletionKind; choices?: readonly string[] }>;
}

export type FlagValues = Record<string, string | number | boolean | string[] | undefined>;

export interface CommandContext {
  io: Io;
  env: NodeJS.ProcessEnv;
  flags: FlagValues;
  args: string[];
}

export interface CommandSpec {
  /** the command words: ['token', 'create'] */
  path: string[];
  synopsis: string;
  /** e.g. 'svc token create [options] [k=v ...]' */
  usage: string;
  description: string;
  examples?: Array<{ command: string; description?: string }>;
  exitCodes?: Record<number, string>;
  /** the flag sets shared by many commands, by name: see src/cli/flags/common.ts */
  flagSets?: Array<'http' | 'output' | 'scheduler-output' | 'prompt' | 'confirm'>;
  flags?: FlagSpec[];
  args?: ArgSpec[];
  /** left out of help listings, man pages and completions (internal commands such as __complete) */
  hidden?: boolean;
  /** stop flag parsing at the first positional argument (exec-like commands) */
  stopAtFirstArg?: boolean;
  /**
   * Which upstream's exit-code convention the command follows: 'secrets' (Vault: 1 local/usage error,
   * 2 server error) or 'scheduler' (Nomad: 1 for any error).
   */
  family: 'secrets' | 'scheduler' | 'local';
  /** runs until signalled (the server): a closed stdout does not end it, and a crash prints its stack */
  daemon?: boolean;
  run(ctx: CommandContext): Promise<number | void>;
}

/** What a lazily loaded group's module exports: the commands and subgroups below it. */
export interface Subtree {
  commands: CommandSpec[];
  groups?: GroupSpec[];
}

export interface GroupSpec {
  path: string[];
  synopsis: string;
  description: string;
  /**
   * The group's commands and subgroups, when their declarations are too large for every start: written
   * `load: () => import('./index.js')`, which scripts/build.mjs finds and builds as a bundle of its own
   * (dist/cli-<folder>.cjs). The registry loads it when argv reaches the group or every command is listed.
   */
  load?: () => Promise<Subtree>;
}

export function defineCommand(spec: CommandSpec): CommandSpec {
  return spec;
}

export function defineGroup(spec: GroupSpec): GroupSpec {
  return spec;
}
