/** `svc auth cloud config identity write|read`: how logins name entity aliases and which facts they record. */
import { CONFIG_IDENTITY_FIELDS } from '../../../../secrets/auth/cloud/fields.js';
import { endpointCommand } from './endpoint-command.js';

export const configIdentityCommands = [
  endpointCommand({
    words: ['config', 'identity', 'write'],
    method: 'POST',
    endpoint: 'config/identity',
    fields: CONFIG_IDENTITY_FIELDS,
    synopsis: 'Configure the identity integration',
    description:
      'Sets what names the entity alias of each login and which login facts are copied to the token ' +
      'and alias metadata (POST auth/<mount>/config/identity). Only the flags given change.',
    examples: [
      { command: 'svc auth cloud config identity write -iam-alias=full_arn -iam-metadata=account_id,client_arn', description: 'Name iam aliases by ARN and record the client ARN' },
      { command: 'svc auth cloud config identity write -ec2-metadata=default', description: 'Back to the default ec2 metadata' },
    ],
    ok: 'the configuration was written',
  }),
  endpointCommand({
    words: ['config', 'identity', 'read'],
    method: 'GET',
    endpoint: 'config/identity',
    synopsis: 'Print the identity integration',
    description: 'Prints the identity integration (GET auth/<mount>/config/identity), the defaults on a new mount.',
    examples: [{ command: 'svc auth cloud config identity read' }],
    ok: 'the configuration was printed',
  }),
];
