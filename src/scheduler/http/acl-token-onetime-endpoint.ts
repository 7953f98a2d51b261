/**
 * Nomad's one-time tokens, how `svc ui -authenticate` signs a browser in without putting a token in an
 * address: POST /v1/acl/token/onetime turns the caller's token into a code good for one exchange within
 * ten minutes, and POST /v1/acl/token/onetime/exchange trades that code for the token, in Nomad's
 * ACLToken shape, secret included.
 *
 * Stored as tokens are: keyed by the code's salted hash (the code itself is never written), the token's
 * secret sealed with the keyring, since the exchange must hand it back and tokens keep no secret. An
 * exchange deletes the code in the same write that reads it, so two exchanges of one code cannot both win.
 */
import { PermissionDenied, UserError } from '../../shared/errors.js';
import { uuid } from '../../shared/ids.js';
import { tokenFromHeaders } from '../../framework/http/token-header.js';
import { callerOf, tokenUsable } from '../../secrets/token/caller.js';
import type { WriteTx } from '../../storage/store.js';
import { nomadAclToken } from './acl-token-self-endpoint.js';
import { defineRoute } from './route.js';

const ONE_TIME_TOKENS_TABLE = 'acl-onetime-tokens';

/** Nomad's: a one-time token is good for ten minutes. */
const ONE_TIME_TTL_MS = 10 * 60 * 1000;

interface OneTimeRecord {
  AccessorID: string;
  /** the token's secret, sealed; its context is the record's key */
  SealedSecret: string;
  /** ms */
  ExpiresAt: number;
}

const sealContext = (key: string) => `acl-onetime/${key}`;

/** Not one answer that tells an unknown code from a used or an expired one: each is a code to get anew. */
const REFUSED = 'Permission denied: the one-time token is unknown, already used or expired; make a new one (svc ui -authenticate)';

function dropExpired(tx: WriteTx, now: number): void {
  for (const { key, value } of tx.list<OneTimeRecord>(ONE_TIME_TOKENS_TABLE)) if (value.ExpiresAt <= now) tx.delete(ONE_TIME_TOKENS_TABLE, key);
}

export const aclTokenOneTimeRoutes = [
  defineRoute({
    methods: ['POST', 'PUT'],
    path: '/v1/acl/token/onetime',
    acl: { authenticated: true },
    synopsis: 'Make a one-time token for the calling token: exchanged once, within 10 minutes, for the token itself.',
    handler: async (req) => {
      const { seal, store } = req.services;
      const secret = tokenFromHeaders(req.raw.headers) ?? '';
      const code = uuid();
      const key = seal.hashToken(code);
      const now = Date.now();
      const record: OneTimeRecord = { AccessorID: req.caller.token.accessor, SealedSecret: seal.encrypt(secret, sealContext(key)), ExpiresAt: now + ONE_TIME_TTL_MS };
      const { index } = await store.write((tx) => {
        dropExpired(tx, now);
        tx.put(ONE_TIME_TOKENS_TABLE, key, record);
      });
      return {
        index,
        body: { OneTimeToken: { OneTimeSecretID: code, AccessorID: record.AccessorID, ExpiresAt: new Date(record.ExpiresAt).toISOString(), CreateIndex: index, ModifyIndex: index } },
      };
    },
  }),
  defineRoute({
    methods: ['POST', 'PUT'],
    path: '/v1/acl/token/onetime/exchange',
    acl: { open: true },
    synopsis: 'Exchange a one-time token for the token it was made from (once).',
    handler: async (req) => {
      const body = req.body();
      if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new UserError('the request body must be a JSON object with OneTimeSecretID');
      const code = (body as Record<string, unknown>).OneTimeSecretID;
      if (typeof code !== 'string' || code.trim() === '') throw new UserError('missing required field "OneTimeSecretID" (the one-time token\'s secret, a string)');
      const { seal, store, tokens } = req.services;
      const key = seal.hashToken(code.trim());
      const now = Date.now();
      const { result: record } = await store.write((tx) => {
        const found = tx.get<OneTimeRecord>(ONE_TIME_TOKENS_TABLE, key);
        if (found) tx.delete(ONE_TIME_TOKENS_TABLE, key);
        return found;
      });
      if (!record || record.ExpiresAt <= now) throw new PermissionDenied(REFUSED);
      const secret = seal.decrypt(record.SealedSecret, sealContext(key));
      // The token may have been revoked or expired since: the code is worth no more than it.
      const entry = tokens.find(secret);
      if (!entry || !tokenUsable(entry, req.services)) throw new PermissionDenied(REFUSED);
      const caller = await callerOf(entry, req.services);
      return { body: { Token: nomadAclToken(entry, secret, caller.acl.root) } };
    },
  }),
];
