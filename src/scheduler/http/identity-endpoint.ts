/**
 * Workload identities (Nomad's Alloc.SignIdentities and its JWKS endpoint):
 *
 *   POST /v1/node/:node_id/sign-identities   (node secret) {AllocID, Tasks: [name]}
 *                                            → {Tasks: {name: JWT}, Expirations: {name: unix seconds, 0 for none}, Index}
 *   GET  /.well-known/jwks.json              (no token) → {keys: [JWK]}
 *
 * A node asks for the identities of the tasks it starts; each is the task's default identity, signed
 * now. The JWTs are answered and never kept: the allocation as the API shows it holds none.
 */
import { UserError } from '../../shared/errors.js';
import { publicKeySet, signingKey } from '../identity/signing-key.js';
import { identityClaims, signJwt } from '../identity/workload-identity.js';
import { bodyObject } from './alloc-endpoint.js';
import { allocTasksRequest, placedAllocation } from './node-token-endpoint.js';
import { defineRoute } from './route.js';

export const identityRoutes = [
  defineRoute({
    methods: ['POST', 'PUT'],
    path: '/v1/node/:node_id/sign-identities',
    acl: { nodeSecret: true },
    synopsis: "Sign the default workload identities of an allocation's tasks, for the node that runs it.",
    handler: async (req) => {
      const { allocId, names } = allocTasksRequest(bodyObject(req, 'object with AllocID and Tasks', true), 'an identity');
      const { store, seal } = req.services;
      const { alloc, job, group } = placedAllocation(store, allocId, req.params.node_id, 'identity');
      const key = await signingKey(store, seal);
      const now = new Date();
      const signed: Record<string, string> = {};
      const expirations: Record<string, number> = {};
      for (const name of names) {
        const task = group.Tasks.find((t) => t.Name === name);
        if (!task) throw new UserError(`task "${name}" is not in group "${group.Name}" of job "${job.ID}"`);
        const claims = identityClaims(job, alloc, task, now);
        signed[name] = signJwt(claims, key);
        expirations[name] = claims.exp ?? 0;
      }
      return { body: { Tasks: signed, Expirations: expirations, Index: store.index() }, index: store.index() };
    },
  }),
  defineRoute({
    methods: ['GET'],
    path: '/.well-known/jwks.json',
    acl: { open: true },
    synopsis: 'The public keys that verify workload identities, as a JSON Web Key Set.',
    handler: async (req) => ({ body: await publicKeySet(req.services.store, req.services.seal) }),
  }),
];
