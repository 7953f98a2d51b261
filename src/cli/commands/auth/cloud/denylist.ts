/**
 * `svc auth cloud denylist add|read|list|delete`: role tags refused at login. A tag holds ':' and
 * base64 text that may hold '/', so it goes in the URL path as URL-safe base64, which the server accepts
 * as it accepts the raw tag, and which no proxy or path normalisation can alter.
 */
import type { ArgSpec } from '../../../define.js';
import { endpointCommand } from './endpoint-command.js';

const tag: ArgSpec = { name: 'tag', description: 'The role tag: the tag_value `svc auth cloud role tag` printed.', required: true };
const listedTag: ArgSpec = { ...tag, complete: 'denylist' };
const segment = { role_tag: (value: string) => Buffer.from(value, 'utf8').toString('base64url') };

export const denylistCommands = [
  endpointCommand({
    words: ['denylist', 'add'],
    method: 'POST',
    endpoint: 'roletag-denylist/:role_tag',
    segment,
    args: [tag],
    synopsis: 'Put a role tag on the deny list',
    description:
      'Puts TAG on the deny list (POST auth/<mount>/roletag-denylist/<URL-safe base64 of TAG>): no instance can ' +
      'log in with it any more. Tokens already issued with it stay valid. The entry is kept until the ' +
      'tag would have expired, plus the safety buffer of tidy.',
    examples: [{ command: 'svc auth cloud denylist add "$(svc auth cloud role tag -field=tag_value web)"' }],
    ok: 'the tag is on the deny list',
    failed: 'a server error, such as a value that is not a role tag of this mount',
  }),
  endpointCommand({
    words: ['denylist', 'read'],
    method: 'GET',
    endpoint: 'roletag-denylist/:role_tag',
    segment,
    args: [listedTag],
    synopsis: 'Print a deny list entry',
    description: 'Prints the deny list entry of TAG: when it was added and when it expires.',
    examples: [{ command: 'svc auth cloud denylist read "v1:09Vp0qGuyB8=:r=web:d=false:t=1h:m=false:0wHZ..."' }],
    ok: 'the entry was printed',
    failed: 'a server error, or the tag is not on the deny list',
  }),
  endpointCommand({
    words: ['denylist', 'list'],
    method: 'LIST',
    endpoint: 'roletag-denylist',
    synopsis: 'List the deny-listed role tags',
    description: 'Lists the tags on the deny list (LIST auth/<mount>/roletag-denylist). When there are none it says "No value found" and exits 2.',
    examples: [{ command: 'svc auth cloud denylist list -format=json' }],
    ok: 'the tags were listed',
    failed: 'a server error, or an empty deny list',
  }),
  endpointCommand({
    words: ['denylist', 'delete'],
    method: 'DELETE',
    endpoint: 'roletag-denylist/:role_tag',
    segment,
    args: [listedTag],
    synopsis: 'Take a role tag off the deny list',
    description: 'Removes TAG from the deny list; instances may log in with it again.',
    examples: [{ command: 'svc auth cloud denylist delete "v1:09Vp0qGuyB8=:r=web:d=false:t=1h:m=false:0wHZ..."' }],
    ok: 'the entry was removed, or did not exist',
  }),
];
