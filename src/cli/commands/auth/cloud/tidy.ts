/** `svc auth cloud tidy accesslist|denylist`: remove expired entries now, rather than at the next periodic tidy. */
import { TIDY_FIELDS } from '../../../../secrets/auth/cloud/fields.js';
import { endpointCommand } from './endpoint-command.js';
import { TIDY_LISTS, type TidyListName } from './tidy-lists.js';

const tidy = (name: TidyListName) => {
  const { api, what } = TIDY_LISTS[name];
  return endpointCommand({
    words: ['tidy', name],
    method: 'POST',
    endpoint: `tidy/${api}`,
    fields: TIDY_FIELDS,
    synopsis: `Remove expired entries of the ${what}`,
    description:
      `Starts removing the entries of the ${what} that expired more than the safety buffer ago (POST ` +
      `auth/<mount>/tidy/${api}). The server answers at once and tidies in the background; the warning ` +
      'it answers with is printed, and its log says when the tidy is done.',
    examples: [{ command: `svc auth cloud tidy ${name} -safety-buffer=24h` }],
    ok: 'the tidy was started',
  });
};

export const tidyCommands = [tidy('accesslist'), tidy('denylist')];
