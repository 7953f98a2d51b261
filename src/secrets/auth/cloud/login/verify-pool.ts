/**
 * ec2 documents are checked off the event loop, in a small pool of worker threads (one per core): a
 * check is mostly ASN.1 decoding in JavaScript, the costliest part of a login, and the event loop must
 * keep serving heartbeats and other requests meanwhile. A refusal is thrown again here as the same
 * SignatureError with the same message, so the caller cannot tell where the check ran.
 *
 * The workers run the built dist/cloud-verify-worker.cjs, which sits next to the server's bundle. Where
 * there is none, as when the server runs from its TypeScript sources (the tests), a check runs in the
 * calling thread instead: the same code, on the event loop.
 *
 * Each server has a pool of its own (the cloud auth method's state builds it), so a server's shutdown
 * stops its threads and two servers in one process, as tests run them, share nothing.
 */
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { SignatureError } from './pkcs7.js';
import { checkDocument, createCheckMemos, type CheckAnswer, type CheckMemos, type CheckRequest, type DocumentCheck } from './document-check.js';

interface Pending {
  /** with the full trust, to send again to a worker that no longer knows it */
  check: DocumentCheck;
  resolve: (content: Buffer) => void;
  reject: (err: Error) => void;
}

interface PoolWorker {
  worker: Worker;
  pending: Map<number, Pending>;
  /** checks not sent yet: they go as one message once the current turn of the event loop is done */
  outbox: CheckRequest[];
  /** trust fingerprints whose certificates were sent to this worker (it may have dropped some since) */
  told: Set<string>;
}

const WORKER_SCRIPT = path.join(__dirname, 'cloud-verify-worker.cjs');

export interface VerifyPool {
  /**
   * The signed document's bytes once its signature verifies; rejects with the SignatureError that says
   * why not. The registered certificates travel to a worker once per trust fingerprint, not with every check.
   */
  verify(check: DocumentCheck): Promise<Buffer>;
  /** Stops the workers; checks still waiting fail. */
  close(): Promise<void>;
}

/** A pool of its own for each server: its threads start with the first check and end with close(). */
export function createVerifyPool(): VerifyPool {
  let available: boolean | undefined;
  const workers: PoolWorker[] = [];
  let nextId = 0;
  // Checks run in this thread where there are no workers, with memos of their own.
  let inThread: CheckMemos | undefined;

  function answered(w: PoolWorker, answer: CheckAnswer): void {
    const waiting = w.pending.get(answer.id);
    if (!waiting) return;
    if ('unknownTrust' in answer) {
      send(w, { id: answer.id, check: waiting.check });
      return;
    }
    w.pending.delete(answer.id);
    if ('content' in answer) waiting.resolve(Buffer.from(answer.content.buffer, answer.content.byteOffset, answer.content.byteLength));
    else waiting.reject(answer.signature ? new SignatureError(answer.error) : new Error(answer.error));
  }

  function send(w: PoolWorker, request: CheckRequest): void {
    if (w.outbox.push(request) > 1) return;
    setImmediate(() => {
      const batch = w.outbox;
      w.outbox = [];
      w.worker.postMessage(batch);
    });
  }

  /** A worker that died fails its checks and leaves the pool; the next check starts a new one. */
  function startWorker(): PoolWorker {
    const w: PoolWorker = { worker: new Worker(WORKER_SCRIPT), pending: new Map(), outbox: [], told: new Set() };
    const gone = (err: Error) => {
      const at = workers.indexOf(w);
      if (at !== -1) workers.splice(at, 1);
      for (const p of w.pending.values()) p.reject(err);
      w.pending.clear();
    };
    w.worker.on('message', (answers: CheckAnswer[]) => {
      for (const answer of answers) answered(w, answer);
    });
    w.worker.on('error', (err) => gone(new Error(`the signature check failed: ${err.message}`)));
    w.worker.on('exit', (code) => gone(new Error(`the signature check's worker thread exited (${code})`)));
    // Idle workers must not keep a finished process alive.
    w.worker.unref();
    workers.push(w);
    return w;
  }

  /** The least busy worker, starting one while the pool is below its size and every worker has work. */
  function leastBusy(): PoolWorker {
    let best: PoolWorker | undefined;
    for (const w of workers) if (!best || w.pending.size < best.pending.size) best = w;
    if (best && (best.pending.size === 0 || workers.length >= availableParallelism())) return best;
    return startWorker();
  }

  return {
    verify(check) {
      available ??= existsSync(WORKER_SCRIPT);
      if (!available) {
        try {
          return Promise.resolve(checkDocument(check, (inThread ??= createCheckMemos())));
        } catch (err) {
          return Promise.reject(err);
        }
      }
      const w = leastBusy();
      const id = nextId++;
      const { fingerprint } = check.trust;
      const told = w.told.has(fingerprint);
      w.told.add(fingerprint);
      return new Promise((resolve, reject) => {
        w.pending.set(id, { check, resolve, reject });
        send(w, { id, check: told ? { ...check, trust: { fingerprint } } : check });
      });
    },
    async close() {
      await Promise.all(workers.map((w) => w.worker.terminate()));
    },
  };
}
