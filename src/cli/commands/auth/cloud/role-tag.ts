/** `svc auth cloud role tag`: a role tag narrows what an instance tagged with it gets from an ec2 role. */
import { ROLE_TAG_FIELDS } from '../../../../secrets/auth/cloud/fields.js';
import { endpointCommand } from './endpoint-command.js';

export const roleTagCommand = endpointCommand({
  words: ['role', 'tag'],
  method: 'POST',
  endpoint: 'role/:role/tag',
  fields: ROLE_TAG_FIELDS,
  args: [{ name: 'name', description: 'Name of the ec2 role; it must have -role-tag set.', required: true, complete: 'role' }],
  synopsis: 'Create a role tag',
  description:
    'Creates a role tag for the ec2 role NAME (POST auth/<mount>/role/NAME/tag) and prints tag_key and ' +
    'tag_value. Set an instance tag with that key and value: its logins then get at most what the tag ' +
    'allows (a subset of the role\'s policies, a shorter max TTL, one instance). A tag is revoked by ' +
    'putting it on the deny list (svc auth cloud denylist add).',
  examples: [
    { command: 'svc auth cloud role tag -policies=web -max-ttl=2h web', description: 'A tag that gives only the "web" policy, for at most two hours' },
    { command: 'svc auth cloud role tag -instance-id=i-0123456789abcdef0 -field=tag_value web', description: 'A tag only that instance may use; print only its value' },
  ],
  ok: 'the tag was created',
  failed: 'a server error, such as a role without -role-tag, or policies the role does not have',
});
