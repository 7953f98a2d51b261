/**
 * Which output the flags of the `scheduler-output` set ask for (src/cli/flags/common.ts). Checked by
 * src/main.ts before a command runs, so a contradiction is a usage error even when the server is
 * unreachable; src/cli/output/scheduler-output.ts prints accordingly. On the start-up path: no imports
 * beyond the error types and the (import-free) flag declarations.
 */
import type { FlagValues } from '../define.js';
import { UsageError } from '../../shared/errors.js';
import { OUTPUT_FLAGS } from '../flags/common.js';
import { envSource } from '../flags/env-names.js';

const FORMAT_FLAG = OUTPUT_FLAGS.find((f) => f.name === 'format')!;

export type SchedulerOutputMode =
  | { kind: 'table' }
  | { kind: 'json' }
  | { kind: 'yaml' }
  | { kind: 'field'; name: string }
  | { kind: 'template'; text: string };

const given = (v: unknown): v is string => typeof v === 'string' && v !== '';

/**
 * The mode the flags ask for; a UsageError when they ask for two different things. A `-format` equal to
 * the environment's (SVC_FORMAT, or VAULT_FORMAT) counts as coming from there, a default that explicit
 * flags override.
 */
export function schedulerOutputMode(flags: FlagValues, env: Record<string, string | undefined>): SchedulerOutputMode {
  const format = given(flags.format) ? flags.format : 'table';
  const formatFromFlag = format !== 'table' && envSource(FORMAT_FLAG, env, 'scheduler')?.text !== format;
  const json = flags.json === true;
  if (given(flags.t)) {
    if (json) throw new UsageError('Both json and template formatting are not allowed: pass -json or -t, not both');
    if (formatFromFlag || given(flags.field)) throw new UsageError('-t cannot be combined with -format or -field: the template decides the whole output');
    return { kind: 'template', text: flags.t };
  }
  if (json && formatFromFlag && format === 'yaml') throw new UsageError('-json and -format=yaml ask for different formats: pass one of them');
  if (given(flags.field)) return { kind: 'field', name: flags.field };
  if (json) return { kind: 'json' };
  return format === 'json' || format === 'yaml' ? { kind: format } : { kind: 'table' };
}
