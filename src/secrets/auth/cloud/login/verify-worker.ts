/**
 * A signature-check worker thread (see verify-pool.ts); built as dist/cloud-verify-worker.cjs. Checks
 * arrive in batches and their answers leave as one, so that a busy server wakes each thread once per
 * batch rather than once per login. The thread's memos live as long as it does.
 */
import { parentPort, type MessagePort } from 'node:worker_threads';
import { answerCheck, createCheckMemos, type CheckRequest } from './document-check.js';

function serveChecks(port: MessagePort): void {
  const memos = createCheckMemos();
  port.on('message', (batch: CheckRequest[]) => {
    const answers = batch.map(({ id, check }) => answerCheck(id, check, memos));
    port.postMessage(
      answers,
      answers.flatMap((a) => ('content' in a ? [a.content.buffer as ArrayBuffer] : [])),
    );
  });
}

serveChecks(parentPort!);
