/**
 * KV version 2's subkeys/<path>, as Vault's: the shape of a version's data without its values: every
 * key, with nested objects followed down to `depth` levels (0: all) and every other value null.
 */
import { definePath } from '../framework/path.js';
import { isObject } from './merge-patch.js';
import { readVersion } from './read-version.js';

function subkeys(data: Record<string, unknown>, depth: number, level = 1): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(data)) out[k] = isObject(v) && (depth === 0 || level < depth) ? subkeys(v, depth, level + 1) : null;
  return out;
}

export const subkeysPaths = [
  definePath({
    pattern: 'subkeys/*path',
    fields: {
      path: { type: 'string', description: 'The location of the secret, relative to the mount\'s subkeys/.' },
      version: { type: 'int', description: 'The version; the latest when 0 or not given.', query: true },
      depth: { type: 'int', description: 'How many levels of nested objects to follow; 0 for all.', query: true },
    },
    synopsis: 'Read the keys of a secret without its values.',
    description: 'Answers the keys of a version\'s data, nested objects followed down to "depth" levels, every value null, with the version\'s metadata.',
    operations: {
      read: {
        summary: 'Read the subkeys of a secret.',
        handler: async (req, data) => {
          const { metadata, data: secret } = readVersion(req, data.get<string>('path'), data.get<number>('version'));
          if (!secret) return { data: { subkeys: null, metadata }, status: 404 };
          return { data: { subkeys: subkeys(secret, Math.max(0, data.get<number>('depth'))), metadata } };
        },
      },
    },
  }),
];
