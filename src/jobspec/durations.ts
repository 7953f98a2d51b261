/**
 * Go duration text to int64 nanoseconds, the unit of every duration field in Nomad's JSON. There is no
 * "d" unit, because Go has none (jobspec2 rejects it).
 */
export { parseGoDuration as parseGoDurationNs } from '../shared/duration.js';
