/**
 * auth/token/revoke, revoke-self, revoke-accessor and revoke-orphan. Revoking a token revokes every token
 * below it; revoke-orphan (sudo) revokes only the token and leaves its children as orphans.
 */
import { definePath, type PathDef } from '../framework/path.js';
import type { SecretsResponse } from '../framework/request.js';
import { PermissionDenied, UserError } from '../../shared/errors.js';
import { TOKEN_ACCESSOR_FIELDS, TOKEN_REVOKE_FIELDS } from './fields.js';
import type { TokenEntry } from './token-entry.js';
import type { TokenService } from './token-service.js';

async function revokeTree(tokens: TokenService, entry: TokenEntry | undefined): Promise<SecretsResponse | void> {
  // Revoking a token that is not there is not an error, as in Vault.
  if (!entry) return;
  if (entry.type === 'batch') throw new UserError('batch tokens cannot be revoked');
  await tokens.revoke(entry.id);
}

export const revokePaths: PathDef[] = [
  definePath({
    pattern: 'revoke-self',
    fields: {},
    synopsis: 'Revoke the calling token and its children.',
    description: 'Revokes the calling token and every token created from it. The default policy allows it.',
    operations: {
      update: {
        summary: 'Revoke the calling token.',
        handler: async (req) => {
          if (!req.caller) throw new PermissionDenied();
          if (req.caller.token.type === 'batch') throw new UserError('batch tokens cannot be revoked');
          // On its last use the token is already gone, which leaves nothing to do.
          await req.services.tokens.revoke(req.caller.token.id);
        },
      },
    },
  }),
  definePath({
    pattern: 'revoke-accessor',
    fields: TOKEN_ACCESSOR_FIELDS,
    synopsis: 'Revoke a token and its children by the token accessor.',
    description: 'Revokes the token with this accessor and every token created from it.',
    operations: {
      update: {
        summary: 'Revoke a token by accessor.',
        handler: async (req, data) => {
          const tokens = req.services.tokens;
          const entry = tokens.lookupByAccessor(data.get<string>('accessor'));
          if (!entry) return { warnings: ['No token found with this accessor'] };
          await tokens.revoke(entry.id);
        },
      },
    },
  }),
  definePath({
    pattern: 'revoke-orphan',
    fields: TOKEN_REVOKE_FIELDS,
    sudo: true,
    synopsis: 'Revoke a token, leaving its children as orphans.',
    description: 'Revokes the given token only; the tokens created from it survive as orphans. Needs sudo.',
    operations: {
      update: {
        summary: 'Revoke a token and orphan its children.',
        handler: async (req, data) => {
          const tokens = req.services.tokens;
          const entry = tokens.find(data.get<string>('token'));
          if (!entry) throw new UserError('token to revoke not found');
          if (entry.type === 'batch') throw new UserError('batch tokens cannot be revoked');
          await tokens.revoke(entry.id, { orphanChildren: true });
        },
      },
    },
  }),
  definePath({
    pattern: 'revoke',
    fields: TOKEN_REVOKE_FIELDS,
    synopsis: 'Revoke a token and its children.',
    description: 'Revokes the given token and every token created from it; orphans survive.',
    operations: {
      update: {
        summary: 'Revoke a token.',
        handler: async (req, data) => {
          const tokens = req.services.tokens;
          return revokeTree(tokens, tokens.find(data.get<string>('token')));
        },
      },
    },
  }),
];
