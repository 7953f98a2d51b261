import { defineCommand } from '../../define.js';
import { HTTP_FLAGS } from '../../flags/common.js';
import { SvcError } from '../../../shared/errors.js';
import { NO_TOKEN_HINT, tokenFor } from '../../client-from-flags.js';

export default defineCommand({
  path: ['print', 'token'],
  synopsis: 'Print the token the CLI would use',
  usage: 'svc print token [options]',
  description:
    'Prints the token other commands would send: -token, else SVC_TOKEN (or VAULT_TOKEN, NOMAD_TOKEN), else the token file written by ' +
    '`svc login` (~/.svc-token, or SVC_TOKEN_FILE). The curl commands -output-curl-string prints read ' +
    'it with $(svc print token), so the token itself is never written on the command line.',
  examples: [{ command: 'svc print token', description: 'Print the token in use; in a shell, curl -H "X-Svc-Token: $(svc print token)" ... sends it' }],
  exitCodes: { 0: 'the token was printed', 1: 'no token is set' },
  family: 'local',
  flags: HTTP_FLAGS.filter((f) => f.name === 'token').map((f) => ({ ...f, group: undefined })),
  async run(ctx) {
    const token = tokenFor(ctx);
    if (!token) throw new SvcError(NO_TOKEN_HINT);
    ctx.io.out(token);
    return 0;
  },
});
