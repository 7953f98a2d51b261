/**
 * The `svc auth cloud` subtree: its groups and commands. It is a bundle of its own (dist/cli-auth-cloud.cjs)
 * that src/cli/registry.ts loads only when argv starts with `auth cloud`, or when every command is listed:
 * the field schemas the flags come from are too large to parse on every start. The `auth cloud` group
 * itself is declared with the auth commands, so `svc auth -help` lists it without loading this.
 */
import { defineGroup, type CommandSpec, type GroupSpec } from '../../../define.js';
import { configClientCommands } from './config-client.js';
import { configIdentityCommands } from './config-identity.js';
import { configCertificateCommands } from './config-certificate.js';
import { configStsCommands } from './config-sts.js';
import { configTidyCommands } from './config-tidy.js';
import { rotateRootCommand } from './rotate-root.js';
import { roleCommands } from './role.js';
import { roleTagCommand } from './role-tag.js';
import { denylistCommands } from './denylist.js';
import { accesslistCommands } from './accesslist.js';
import { tidyCommands } from './tidy.js';

const group = (words: string[], synopsis: string, description: string) => defineGroup({ path: ['auth', 'cloud', ...words], synopsis, description });

export const groups: GroupSpec[] = [
  group(
    ['config'],
    'Configure the cloud auth method',
    'How the mount calls the provider (client), names entity aliases (identity), verifies identity ' +
      'documents (certificate), reaches other accounts (sts), and tidies its lists (tidy).',
  ),
  group(['config', 'client'], 'Manage the provider credentials and endpoints', 'Write, read and delete the credentials and endpoints the server calls the provider with.'),
  group(['config', 'identity'], 'Manage the identity integration', 'Write and read what names the entity alias of a login and which login facts become metadata.'),
  group(['config', 'certificate'], 'Manage trusted provider certificates', 'Register, read, remove and list the provider certificates trusted besides the built-in ones.'),
  group(['config', 'sts'], 'Manage the roles assumed per account', 'Set, read, remove and list the role the server assumes to look up instances and principals of another account.'),
  group(
    ['config', 'tidy'],
    'Configure tidying of the access and deny lists',
    'Write, read and reset the safety buffer and the periodic tidy of the identity access list and the role tag deny list.',
  ),
  group(
    ['role'],
    'Manage roles and role tags',
    'A role says which machines may log in (bound constraints, checked against the instance or the ' +
      'signing principal) and what tokens they get (token settings). Role tags narrow an ec2 role for ' +
      'the instances tagged with them.',
  ),
  group(['denylist'], 'Manage the role tag deny list', 'Role tags on the deny list are refused at login; tokens already issued with them stay valid.'),
  group(['accesslist'], 'Manage the identity access list', 'Every ec2 login records its instance on the access list, with the nonce a later login must send.'),
  group(['tidy'], 'Remove expired list entries', 'Remove expired entries of the access list or the deny list now, rather than at the next periodic tidy.'),
];

export const commands: CommandSpec[] = [
  ...configClientCommands,
  ...configIdentityCommands,
  ...configCertificateCommands,
  ...configStsCommands,
  ...configTidyCommands,
  rotateRootCommand,
  ...roleCommands,
  roleTagCommand,
  ...denylistCommands,
  ...accesslistCommands,
  ...tidyCommands,
];
