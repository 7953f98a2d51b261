/** Signal names as users write them (`SIGUSR1`, `usr1`) and the numbers the kernel uses. */
import { constants } from 'node:os';
import { UserError } from '../../shared/errors.js';

const SIGNALS = constants.signals as Record<string, number>;

export class InvalidSignalError extends UserError {
  constructor(signal: string) {
    super(`invalid signal "${signal}"`);
  }
}

/** `usr1`, `USR1` and `SIGUSR1` all name SIGUSR1; anything else the host does not know is an error. */
export function normalizeSignal(signal: string): NodeJS.Signals {
  const upper = signal.trim().toUpperCase();
  const name = upper.startsWith('SIG') ? upper : `SIG${upper}`;
  if (!(name in SIGNALS)) throw new InvalidSignalError(signal);
  return name as NodeJS.Signals;
}

export function signalNumber(signal: string): number {
  return SIGNALS[normalizeSignal(signal)];
}

/** Every signal name the host knows, sorted: the `os.signals` node attribute. */
export function hostSignalNames(): string[] {
  return Object.keys(SIGNALS).sort();
}
