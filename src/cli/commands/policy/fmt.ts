import { defineCommand } from '../../define.js';

export default defineCommand({
  path: ['policy', 'fmt'],
  synopsis: 'Format a policy file in place',
  usage: 'svc policy fmt [options] PATH',
  description:
    'Checks the HCL policy at PATH with the parser the server uses, then rewrites the file in its ' +
    'canonical layout, as `vault policy fmt` does: two spaces per nesting level, one space around `=` and ' +
    'after commas, and the `=` of consecutive attributes aligned. Comments and the order of rules are ' +
    'kept. A policy that does not parse is reported with the line that holds the error and the file is ' +
    'left as it was. JSON policies are not formatted. No server is needed.',
  examples: [{ command: 'svc policy fmt examples/policies/ci-deploy.hcl' }],
  exitCodes: { 0: 'the file was formatted', 1: 'the file cannot be read or written, holds JSON, or does not parse' },
  family: 'local',
  args: [{ name: 'path', description: 'The HCL policy file to format.', required: true, complete: 'file' }],
  async run(ctx) {
    return (await import('../../policy-fmt.js')).policyFmt(ctx);
  },
});
