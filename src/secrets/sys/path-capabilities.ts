/**
 * What a token may do on given paths: sys/capabilities-self for the caller's own token (the default
 * policy grants it), sys/capabilities for any token, sys/capabilities-accessor for a token named by its
 * accessor. Answers as Vault does: one key per path, plus
 * `capabilities` when exactly one path was asked; a root token gets ["root"], no grant ["deny"].
 */
import { PermissionDenied, UserError } from '../../shared/errors.js';
import { definePath } from '../framework/path.js';
import type { FieldData } from '../../framework/schema/field-data.js';
import type { Acl } from '../policy/acl.js';
import type { TokenEntry } from '../token/token-entry.js';
import { callerOf } from '../token/caller.js';
import type { SecretsContext } from '../context.js';
import { CAPABILITIES_ACCESSOR_FIELDS, CAPABILITIES_FIELDS, CAPABILITIES_SELF_FIELDS } from './fields.js';

function requestedPaths(data: FieldData): string[] {
  const single = data.getOk<string>('path');
  const paths = [...(single ? [single] : []), ...data.get<string[]>('paths')].filter((p) => p !== '');
  if (paths.length === 0) throw new UserError('missing path: give "path" or "paths"');
  return [...new Set(paths)];
}

export function capabilitiesOf(acl: Acl, path: string): string[] {
  if (acl.root) return ['root'];
  const caps = [...acl.capabilities(path)].sort();
  return caps.length === 0 ? ['deny'] : caps;
}

function answer(acl: Acl, paths: string[]) {
  const data: Record<string, unknown> = {};
  for (const p of paths) data[p] = capabilitiesOf(acl, p);
  if (paths.length === 1) data.capabilities = data[paths[0]];
  return { data };
}

async function answerFor(services: SecretsContext, entry: TokenEntry, paths: string[]) {
  return answer((await callerOf(entry, services)).acl, paths);
}

export const capabilitiesPaths = [
  definePath({
    pattern: 'capabilities-self',
    fields: CAPABILITIES_SELF_FIELDS,
    synopsis: "The caller's capabilities on paths.",
    description: 'Answers the capabilities the calling token has on each given path. The default policy allows it.',
    operations: {
      update: {
        summary: "Check the caller's capabilities.",
        handler: async (req, data) => answer(req.caller!.acl, requestedPaths(data)),
      },
    },
  }),
  definePath({
    pattern: 'capabilities',
    fields: CAPABILITIES_FIELDS,
    synopsis: "Another token's capabilities on paths.",
    description: 'Answers the capabilities the given token has on each given path, its entity\'s policies included.',
    operations: {
      update: {
        summary: "Check a token's capabilities.",
        handler: async (req, data) => {
          const paths = requestedPaths(data);
          let entry;
          try {
            entry = await req.services.tokens.resolve(data.get<string>('token'), req.remoteAddress);
          } catch (err) {
            if (err instanceof PermissionDenied) throw new UserError('invalid token');
            throw err;
          }
          return answerFor(req.services, entry, paths);
        },
      },
    },
  }),
  definePath({
    pattern: 'capabilities-accessor',
    fields: CAPABILITIES_ACCESSOR_FIELDS,
    synopsis: "A token's capabilities on paths, the token named by its accessor.",
    description: "Answers the capabilities the token with the given accessor has on each given path, its entity's policies included.",
    operations: {
      update: {
        summary: "Check a token's capabilities by its accessor.",
        handler: async (req, data) => {
          const paths = requestedPaths(data);
          const entry = req.services.tokens.lookupByAccessor(data.get<string>('accessor'));
          // Vault's message for an accessor that names no live token.
          if (!entry) throw new UserError('invalid accessor');
          return answerFor(req.services, entry, paths);
        },
      },
    },
  }),
];
