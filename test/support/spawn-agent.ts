/** Runs `bin/svc agent ...` as a real child process, resolved once its banner names the node. */
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { spawnBin, type SpawnedBin } from './spawn-bin.js';

export type SpawnedAgent = SpawnedBin;

/** Agents still running, so a test file can stop them all in afterAll. */
export const runningAgents = new Set<ChildProcessWithoutNullStreams>();

export function spawnAgent(args: string[], env: Record<string, string>): Promise<SpawnedAgent> {
  return spawnBin(['agent', ...args], env, /Node: .*\n/, runningAgents);
}

/** Stops an agent with SIGTERM and answers how it exited. */
export async function stopAgent(agent: SpawnedAgent): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  agent.child.kill('SIGTERM');
  return agent.exited;
}
