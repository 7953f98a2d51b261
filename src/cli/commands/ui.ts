import { defineCommand } from '../define.js';

export default defineCommand({
  path: ['ui'],
  synopsis: 'Open the web UI',
  usage: 'svc ui [options] [IDENTIFIER]',
  description:
    'Opens the web UI in the default browser, as `nomad ui`: on the page of a job, allocation or node when given its ID or a prefix. ' +
    '-authenticate signs the browser in through a one-time token in the URL (one use, 10 minutes), never the token itself.',
  examples: [{ command: 'svc ui -authenticate -show-url example' }],
  exitCodes: { 0: 'success', 1: 'an error' },
  family: 'scheduler',
  flagSets: ['http'],
  flags: [
    { name: 'authenticate', type: 'bool', description: 'Sign the browser in with this token.' },
    { name: 'show-url', type: 'bool', description: 'Print the URL instead of opening it.' },
  ],
  args: [{ name: 'identifier', description: 'A job, allocation or node ID, or a prefix of one.', complete: 'job' }],
  run: async (ctx) => (await import('./ui.run.js')).openUi(ctx),
});
