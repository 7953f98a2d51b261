/** `svc auth cloud rotate-root`: replace the server's access key with a new one. */
import { endpointCommand } from './endpoint-command.js';

export const rotateRootCommand = endpointCommand({
  words: ['rotate-root'],
  method: 'POST',
  endpoint: 'config/rotate-root',
  synopsis: 'Rotate the access key the server uses',
  description:
    'Creates a new access key for the user of the configured access key, stores it, deletes the old ' +
    'one, and prints the new access key ID (POST auth/<mount>/config/rotate-root). The new secret key ' +
    'is never shown. The configured key must be the only one of its user: the provider allows two, and ' +
    'the rotation needs the second slot.',
  examples: [{ command: 'svc auth cloud rotate-root -field=access_key', description: 'Rotate and print only the new access key ID' }],
  ok: 'the key was rotated',
  failed: 'a server error, such as no configured access key or a user that already has two keys',
});
