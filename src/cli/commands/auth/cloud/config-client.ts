/** `svc auth cloud config client write|read|delete`: the credentials and endpoints the server calls the provider with. */
import { CONFIG_CLIENT_FIELDS } from '../../../../secrets/auth/cloud/fields.js';
import { endpointCommand } from './endpoint-command.js';

export const configClientCommands = [
  endpointCommand({
    words: ['config', 'client', 'write'],
    method: 'POST',
    endpoint: 'config/client',
    fields: CONFIG_CLIENT_FIELDS,
    fromFile: ['secret_key'],
    synopsis: 'Configure the provider credentials and endpoints',
    description:
      'Sets how the server calls the cloud provider (POST auth/<mount>/config/client): the access key ' +
      'and secret key, the endpoints of the compute, identity and token services, and the header iam ' +
      'logins must sign. Only the flags given change. Without an access key the server uses ' +
      'CLOUD_ACCESS_KEY, then the instance metadata service. The secret key is stored encrypted and ' +
      'never read back; give it as -secret-key=@FILE or -secret-key=- (stdin) to keep it out of the ' +
      'shell history.',
    examples: [
      { command: 'svc auth cloud config client write -access-key=AKIAEXAMPLE -secret-key=@secret.txt', description: 'Set the credentials, the secret key read from a file' },
      { command: 'svc auth cloud config client write -iam-server-id-header-value=svc.example.com', description: 'Make iam logins name this server in a signed header' },
    ],
    ok: 'the configuration was written',
  }),
  endpointCommand({
    words: ['config', 'client', 'read'],
    method: 'GET',
    endpoint: 'config/client',
    synopsis: 'Print the provider client configuration',
    description: 'Prints the client configuration (GET auth/<mount>/config/client). The secret key is never shown.',
    examples: [{ command: 'svc auth cloud config client read -format=json' }],
    ok: 'the configuration was printed',
    failed: 'a server error, or no configuration',
  }),
  endpointCommand({
    words: ['config', 'client', 'delete'],
    method: 'DELETE',
    endpoint: 'config/client',
    synopsis: 'Remove the provider client configuration',
    description:
      'Removes the client configuration (DELETE auth/<mount>/config/client); the server then finds ' +
      'credentials in CLOUD_ACCESS_KEY or the instance metadata service and uses the default endpoints.',
    examples: [{ command: 'svc auth cloud config client delete' }],
    ok: 'the configuration was removed, or there was none',
  }),
];
