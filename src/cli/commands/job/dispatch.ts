import { defineCommand } from '../../define.js';

export default defineCommand({
  path: ['job', 'dispatch'],
  synopsis: 'Dispatch an instance of a parameterized job',
  usage: 'svc job dispatch [options] JOB [INPUT|-]',
  description:
    'Creates an instance of a parameterized job (an ID or a unique ID prefix): a child job with the ' +
    'payload read from INPUT ("-" reads stdin; at most 16 KiB), written into the task directory as ' +
    'local/<file> for tasks with a dispatch_payload block, and with -meta values merged into the job\'s ' +
    'metadata. The job\'s parameterized block says whether a payload is required, optional or forbidden ' +
    'and which metadata keys are required or allowed. Prints the child\'s ID and its evaluation, then ' +
    'follows the evaluation unless -detach.',
  examples: [
    { command: 'svc job dispatch -meta input=s3://bucket/a video-encode movie.json' },
    { command: 'echo hello | svc job dispatch -detach -idempotency-token build-42 greeter -', description: 'A retry with the same token returns the same instance' },
  ],
  exitCodes: { 0: 'success', 1: 'an error: unreadable input, a refused dispatch, an unknown job', 2: 'some allocations could not be placed' },
  family: 'scheduler',
  flagSets: ['http'],
  flags: [
    { name: 'meta', type: 'strings', description: 'A metadata value for the instance, as key=value. Repeatable.' },
    { name: 'idempotency-token', type: 'string', description: 'Dispatch at most one instance with this token while that instance is not dead; a retry returns it.' },
    { name: 'id-prefix-template', type: 'string', description: 'Put this text in the instance\'s ID: <job>/dispatch-<template>-<time>-<random>.' },
    { name: 'priority', type: 'int', description: 'Priority of the instance (1 to 100); the job\'s by default.' },
    { name: 'detach', type: 'bool', description: 'Return after dispatching instead of following the evaluation.' },
    { name: 'verbose', type: 'bool', description: 'Show full IDs.' },
  ],
  args: [
    { name: 'job', description: 'A parameterized job ID or a unique prefix of one.', required: true, complete: 'job' },
    { name: 'input', description: 'A file holding the payload, or "-" for stdin.', complete: 'file' },
  ],
  run: async (ctx) => (await import('./dispatch.run.js')).jobDispatch(ctx),
});
