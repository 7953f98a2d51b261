/**
 * The state store's commit latency (Nomad's and Vault's raft commitTime: how long a write takes to
 * commit) and its size on disk. The two write methods are wrapped on the opened store itself, so every
 * backend is measured in one place and whatever else the store offers passes through untouched.
 */
import { statSync } from 'node:fs';
import path from 'node:path';
import { gaugeAt, Histogram } from '../shared/metrics/registry.js';
import type { Store } from '../storage/store.js';

const commitTime = new Histogram(
  'nomad.raft.commitTime',
  'Time for a state write to commit, in ms: op="write" until it is on disk, op="commit" until every read sees it (its flush follows).',
  ['op'],
);
const writeCell = commitTime.child('write');
const commitCell = commitTime.child('commit');

const ignore = () => undefined;

export function measureCommits(store: Store): Store {
  const write = store.write.bind(store);
  const commit = store.commit.bind(store);
  store.write = (fn) => {
    const started = performance.now();
    const done = write(fn);
    done.then(() => writeCell.since(started), ignore);
    return done;
  };
  store.commit = (fn) => {
    const started = performance.now();
    const done = commit(fn);
    done.then(() => commitCell.since(started), ignore);
    return done;
  };
  return store;
}

let sizeOf: (() => number | undefined) | undefined;

/** Reports the LMDB state in `stateDir` as the store's size until the answered function is called. */
export function watchStoreSize(stateDir: string | undefined): () => void {
  const file = stateDir && path.join(stateDir, 'data.mdb');
  const read = () => {
    if (!file) return undefined;
    try {
      return statSync(file).size;
    } catch {
      return undefined;
    }
  };
  sizeOf = read;
  return () => {
    if (sizeOf === read) sizeOf = undefined;
  };
}

gaugeAt('nomad.state.size_bytes', 'Bytes the state takes on disk (LMDB; not reported for PostgreSQL or memory).', [], () => sizeOf?.());
