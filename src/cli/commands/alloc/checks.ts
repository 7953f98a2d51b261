import { defineCommand } from '../../define.js';

export default defineCommand({
  path: ['alloc', 'checks'],
  synopsis: 'Outputs service health check status information',
  usage: 'svc alloc checks [options] ALLOC',
  description:
    'Shows the latest result of each service check (http, tcp and script) that the node runs for an ' +
    'allocation (an ID or a unique ID prefix): the check, its group, task and service, its status ' +
    '(success, failure or pending), the HTTP status code, its mode (healthiness, or readiness for ' +
    'on_update = "ignore"), when it last ran and its output.',
  examples: [
    { command: 'svc alloc checks 9f2c7a11' },
    { command: 'svc alloc checks -json 9f2c', description: 'The results as JSON, keyed by check ID' },
    { command: 'svc alloc checks -t \'{{range .}}{{.Check}}: {{.Status}}{{"\\n"}}{{end}}\' 9f2c', description: 'One line per check' },
  ],
  exitCodes: { 0: 'success', 1: 'an error, an unknown allocation, or a prefix matching several' },
  family: 'scheduler',
  flagSets: ['http', 'scheduler-output'],
  flags: [
    { name: 'verbose', type: 'bool', description: 'Show full IDs when a prefix matches several allocations.' },
  ],
  args: [{ name: 'alloc', description: 'An allocation ID or a unique prefix of one.', required: true, complete: 'alloc' }],
  run: async (ctx) => (await import('./checks.run.js')).allocChecks(ctx),
});
