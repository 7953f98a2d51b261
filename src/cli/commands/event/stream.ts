import { defineCommand } from '../../define.js';

export default defineCommand({
  path: ['event', 'stream'],
  synopsis: 'Stream the events of state changes',
  usage: 'svc event stream [options]',
  description:
    'Prints the events of GET /v1/event/stream as they happen, one line per event: its index, topic, type and ' +
    'key. -topic picks what is streamed, as Topic (every key) or Topic:key, and may be repeated; the topics are ' +
    'Job, Evaluation, Allocation, Deployment and Node, and * is all of them (the default, which needs a ' +
    'management token). A key matches an event\'s key or one of its filter keys (an allocation\'s or ' +
    'evaluation\'s job and deployment, a deployment\'s job). -index resumes after that index, from the ' +
    'events the server still holds. -json prints each frame as the server sends it ({"Index":N,"Events":[...]}). ' +
    'Runs until Ctrl-C (exit 0) or until the server ends the stream (exit 1).',
  examples: [
    { command: 'svc event stream -topic Job:web -topic Allocation:web', description: 'The job web and its allocations' },
    { command: 'svc event stream -topic Node -json', description: 'Every node event, as JSON frames' },
    { command: 'svc event stream -namespace "*" -topic Job -index 1200', description: 'Job events of every namespace after index 1200' },
  ],
  exitCodes: { 0: 'interrupted (Ctrl-C)', 1: 'an error, or the server ended the stream' },
  family: 'scheduler',
  flagSets: ['http'],
  flags: [
    { name: 'topic', type: 'strings', description: 'A topic to stream, Topic or Topic:key (Job:web); may be repeated. Default: * (every topic).' },
    { name: 'index', type: 'int', description: 'Resume after this index (0: every event the server still holds).' },
    { name: 'json', type: 'bool', description: 'Print each frame as JSON, as the server sends it.' },
  ],
  run: async (ctx) => (await import('./stream.run.js')).eventStreamCommand(ctx),
});
