/** /v1/namespaces and /v1/namespace/:name, as Nomad serves them. */
import { NotFound, PermissionDenied, UserError } from '../../shared/errors.js';
import { NAMESPACES_TABLE, deleteNamespace, getNamespace, listNamespaces, upsertNamespace } from '../state/namespaces.js';
import { defineRoute, type RouteResult, type SchedulerRequest } from './route.js';

async function apply(req: SchedulerRequest, pathName?: string): Promise<RouteResult> {
  const body = (req.body() ?? {}) as Record<string, unknown>;
  if (typeof body !== 'object' || Array.isArray(body)) throw new UserError('request body must be a Namespace object');
  if (body.Name !== undefined && typeof body.Name !== 'string') throw new UserError('field "Name" must be a string');
  const name = pathName ?? (body.Name as string | undefined);
  if (!name) throw new UserError('field "Name" is required');
  if (body.Name !== undefined && body.Name !== name) throw new UserError(`namespace name in the body ("${String(body.Name)}") does not match the path ("${name}")`);
  if (body.Description !== undefined && typeof body.Description !== 'string') throw new UserError('field "Description" must be a string');
  const meta = body.Meta ?? {};
  if (typeof meta !== 'object' || meta === null || Array.isArray(meta) || Object.values(meta).some((v) => typeof v !== 'string')) {
    throw new UserError('field "Meta" must be a map of string to string');
  }
  const index = await upsertNamespace(req.services.store, { Name: name, Description: body.Description as string | undefined, Meta: meta as Record<string, string> });
  return { body: { Index: index }, index };
}

export const namespaceRoutes = [
  defineRoute({
    methods: ['GET'],
    path: '/v1/namespaces',
    acl: { authenticated: true },
    blocking: true,
    synopsis: 'List the namespaces the token can access.',
    query: { prefix: { type: 'string', description: 'Only namespaces whose name starts with this.' } },
    handler: async (req) => {
      const prefix = req.query.get<string>('prefix');
      const visible = listNamespaces(req.services.store).filter(
        (n) => n.Name.startsWith(prefix) && req.caller.acl.canAccessNamespace(n.Name),
      );
      return { body: visible, index: Math.max(1, req.services.store.tableIndex(NAMESPACES_TABLE)) };
    },
  }),
  defineRoute({
    methods: ['GET'],
    path: '/v1/namespace/:name',
    acl: { authenticated: true },
    blocking: true,
    synopsis: 'Read a namespace.',
    handler: async (req) => {
      const name = req.params.name;
      if (!req.caller.acl.canAccessNamespace(name)) throw new PermissionDenied('Permission denied');
      const ns = getNamespace(req.services.store, name);
      if (!ns) throw new NotFound('namespace not found');
      return { body: ns, index: ns.ModifyIndex };
    },
  }),
  defineRoute({
    methods: ['POST', 'PUT'],
    path: '/v1/namespace/:name',
    acl: { management: true },
    synopsis: 'Create or update a namespace.',
    handler: (req) => apply(req, req.params.name),
  }),
  defineRoute({
    methods: ['POST', 'PUT'],
    path: '/v1/namespace',
    acl: { management: true },
    synopsis: 'Create or update the namespace named in the body.',
    handler: (req) => apply(req),
  }),
  defineRoute({
    methods: ['DELETE'],
    path: '/v1/namespace/:name',
    acl: { management: true },
    synopsis: 'Delete a namespace.',
    handler: async (req) => {
      const index = await deleteNamespace(req.services.store, req.params.name);
      return { body: { Index: index }, index };
    },
  }),
];
