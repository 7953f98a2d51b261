import { defineCommand } from '../../define.js';

export default defineCommand({
  path: ['monitor'],
  synopsis: 'Stream the server\'s log lines',
  usage: 'svc monitor [options]',
  description:
    'Prints the server\'s log lines as they are logged (GET /v1/agent/monitor), from -log-level up, whatever ' +
    'level the server itself logs at, until Ctrl-C (exit 0) or until the server stops (exit 1, saying the ' +
    'remote side ended the monitor). -json prints each line as JSON, with hclog\'s fields @level, @message, ' +
    '@module and @timestamp. Needs agent read (agent { policy = "read" }).',
  examples: [
    { command: 'svc monitor', description: 'Info lines and above' },
    { command: 'svc monitor -log-level=debug -json', description: 'Everything from debug up, as JSON lines' },
  ],
  exitCodes: { 0: 'interrupted (Ctrl-C)', 1: 'an error, or the server ended the stream' },
  family: 'scheduler',
  flagSets: ['http'],
  flags: [
    { name: 'log-level', type: 'string', default: 'info', description: 'The lowest level of the lines printed: trace, debug, info, warn or error.' },
    { name: 'json', type: 'bool', description: 'Print each line as JSON.' },
  ],
  run: async (ctx) => (await import('./monitor.run.js')).monitor(ctx),
});
