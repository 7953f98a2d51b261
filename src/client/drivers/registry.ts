/** The drivers this node has. One instance of each per process: the exec driver probes the host once. */
import type { Driver } from './driver.js';
import { ExecDriver } from './exec.js';
import { MockDriver } from './mock.js';
import { RawExecDriver } from './raw-exec.js';

const shared = { raw_exec: new RawExecDriver(), exec: new ExecDriver(), mock: new MockDriver() };

/** The mock driver only when asked for: a real node does not have it, and jobs must not land on it by mistake. */
export function nodeDrivers(opts: { enableMockDriver?: boolean } = {}): Map<string, Driver> {
  const list: Driver[] = [shared.raw_exec, shared.exec];
  if (opts.enableMockDriver) list.push(shared.mock);
  return new Map(list.map((d) => [d.name, d]));
}
