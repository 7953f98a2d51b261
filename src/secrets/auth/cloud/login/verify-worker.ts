/**
 * A signature-check worker thread (see verify-pool.ts); built as dist/cloud-verify-worker.cjs. Checks
 * arrive in batches and their answers leave as one, so that a busy server wakes each thread once per
 * batch rather than once per login.
 */
import { parentPort } from 'node:worker_threads';
import { answerCheck, type CheckRequest } from './document-check.js';

parentPort!.on('message', (batch: CheckRequest[]) => {
  const answers = batch.map(({ id, check }) => answerCheck(id, check));
  parentPort!.postMessage(
    answers,
    answers.flatMap((a) => ('content' in a ? [a.content.buffer as ArrayBuffer] : [])),
  );
});
