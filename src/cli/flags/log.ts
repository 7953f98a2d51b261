import type { FlagSpec } from '../define.js';
import { LOG_LEVELS } from '../../shared/log.js';

/** The log flags of the daemons (`svc server`, `svc agent`); the config file's log_level and log_json say the same. */
export const LOG_FLAGS: FlagSpec[] = [
  { name: 'log-level', type: 'string', choices: LOG_LEVELS, description: 'Log level. The default is info.' },
  { name: 'log-json', type: 'bool', description: 'Write the log as JSON lines (hclog\'s fields).' },
];
