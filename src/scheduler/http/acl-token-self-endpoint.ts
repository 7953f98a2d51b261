/**
 * GET /v1/acl/token/self: the caller's own token in Nomad's ACLToken shape, as `nomad acl token self`
 * and Nomad's client read it. Its SecretID is the one the caller sent: only the holder learns it. A token
 * with root's ACL is Nomad's `management` type (whose policies Nomad leaves unset), any other a
 * `client` token with its own policies. Tokens belong to the one region svc serves, so none is Global, and
 * they carry no ACL roles. Their records keep no raft index of their own, so both indexes are 0.
 */
import { createHash } from 'node:crypto';
import type { TokenEntry } from '../../secrets/token/token-entry.js';
import { tokenFromHeaders } from '../../framework/http/token-header.js';
import { defineRoute } from './route.js';

export interface NomadAclToken {
  AccessorID: string;
  SecretID: string;
  Name: string;
  Type: 'client' | 'management';
  Policies: string[] | null;
  Roles: [];
  Global: false;
  /** base64 of a digest over the fields a change of the token changes, as Nomad's Hash */
  Hash: string;
  CreateTime: string;
  ExpirationTime: string | null;
  /** nanoseconds */
  ExpirationTTL: number;
  CreateIndex: 0;
  ModifyIndex: 0;
}

/** `management` when the token's ACL is root's. */
export function nomadAclToken(entry: TokenEntry, secret: string, management: boolean): NomadAclToken {
  const expires = entry.expireTime !== 0;
  const token: Omit<NomadAclToken, 'Hash'> = {
    AccessorID: entry.accessor,
    SecretID: secret,
    Name: entry.displayName,
    Type: management ? 'management' : 'client',
    Policies: management ? null : entry.policies,
    Roles: [],
    Global: false,
    CreateTime: new Date(entry.creationTime * 1000).toISOString(),
    ExpirationTime: expires ? new Date(entry.expireTime).toISOString() : null,
    ExpirationTTL: expires ? entry.creationTtl * 1e9 : 0,
    CreateIndex: 0,
    ModifyIndex: 0,
  };
  // Over the public fields only: the hash is shown beside the secret, never derived from it.
  const digest = createHash('sha256').update(JSON.stringify([token.Name, token.Type, token.Policies, token.Global, token.ExpirationTime])).digest('base64');
  return { ...token, Hash: digest };
}

export const aclTokenSelfRoutes = [
  defineRoute({
    methods: ['GET'],
    path: '/v1/acl/token/self',
    acl: { authenticated: true },
    synopsis: "Read the calling token in Nomad's ACL token shape, its secret included.",
    handler: async (req) => {
      // Fresh from the store: this request's use is already counted, and a renewal may have moved its expiry.
      const entry = req.services.tokens.getById(req.caller.token.id) ?? req.caller.token;
      return { body: nomadAclToken(entry, tokenFromHeaders(req.raw.headers) ?? '', req.caller.acl.root) };
    },
  }),
];
