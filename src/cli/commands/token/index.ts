/** Vault's token commands, and `svc login`, which stores a token for the other commands. */
import { defineGroup, type CommandSpec } from '../../define.js';
import capabilitiesCommand from './capabilities.js';
import createCommand from './create.js';
import lookupCommand from './lookup.js';
import renewCommand from './renew.js';
import revokeCommand from './revoke.js';
import loginCommand from '../login.js';

export const tokenGroup = defineGroup({
  path: ['token'],
  synopsis: 'Interact with tokens',
  description:
    'Tokens are how clients authenticate to both APIs: every request carries one (X-Svc-Token). A token ' +
    'has policies, a TTL and optionally a use limit and bound CIDRs. Tokens form a tree: revoking a token ' +
    'revokes the tokens created from it, except orphans. An accessor names a token without revealing it, ' +
    'so it can be looked up, renewed or revoked by someone who does not hold it.',
});

export const tokenCommands: CommandSpec[] = [capabilitiesCommand, createCommand, lookupCommand, renewCommand, revokeCommand, loginCommand];
