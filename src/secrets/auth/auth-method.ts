/** A mountable auth method as one server holds it: its paths, and what it keeps between requests. */
import type { Backend } from '../framework/path.js';

export interface AuthMethod {
  backend: Backend;
  /** The mount with this accessor was disabled (its records are gone): what is kept for it goes too. */
  forgetMount(accessor: string): void;
  /** At shutdown, before storage closes: its background work finishes and its threads stop. */
  close(): Promise<void>;
}
