/** `svc auth cloud config tidy write|read|delete LIST`: how long expired entries of a list are kept, and whether periodic tidy runs. */
import { configTidyFields } from '../../../../secrets/auth/cloud/fields.js';
import { endpointCommand } from './endpoint-command.js';
import { TIDY_LISTS, tidyListSegment } from './tidy-lists.js';

const list = {
  name: 'list',
  description: 'The list: identity-accesslist (or accesslist) or roletag-denylist (or denylist).',
  required: true,
  choices: Object.values(TIDY_LISTS).map((l) => l.api),
};
const segment = { list: tidyListSegment };

export const configTidyCommands = [
  endpointCommand({
    words: ['config', 'tidy', 'write'],
    method: 'POST',
    endpoint: 'config/tidy/:list',
    fields: configTidyFields('list'),
    segment,
    args: [list],
    synopsis: 'Configure tidying of a list',
    description:
      'Sets how long past its expiry an entry of LIST is kept before tidy removes it, and whether the ' +
      'periodic tidy runs (POST auth/<mount>/config/tidy/LIST). Only the flags given change.',
    examples: [
      { command: 'svc auth cloud config tidy write -safety-buffer=24h identity-accesslist' },
      { command: 'svc auth cloud config tidy write -disable-periodic-tidy roletag-denylist', description: 'Tidy the deny list only when asked (svc auth cloud tidy denylist)' },
    ],
    ok: 'the configuration was written',
  }),
  endpointCommand({
    words: ['config', 'tidy', 'read'],
    method: 'GET',
    endpoint: 'config/tidy/:list',
    segment,
    args: [list],
    synopsis: 'Print the tidy configuration of a list',
    description:
      'Prints the safety buffer (in seconds) and whether periodic tidy is disabled for LIST. A configuration never written ' +
      '(or deleted) is not found, as in Vault, and exits 2; tidy then uses the defaults (a 72h safety buffer, periodic tidy on).',
    examples: [{ command: 'svc auth cloud config tidy read identity-accesslist' }],
    ok: 'the configuration was printed',
    failed: 'a server error, or no configuration was written for LIST',
  }),
  endpointCommand({
    words: ['config', 'tidy', 'delete'],
    method: 'DELETE',
    endpoint: 'config/tidy/:list',
    segment,
    args: [list],
    synopsis: 'Reset the tidy configuration of a list',
    description: 'Removes the tidy configuration of LIST, so the defaults (a 72h safety buffer, periodic tidy on) apply again.',
    examples: [{ command: 'svc auth cloud config tidy delete roletag-denylist' }],
    ok: 'the configuration was removed, or there was none',
  }),
];
