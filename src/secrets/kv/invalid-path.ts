/**
 * What a version 2 mount answers outside its paths, as Vault's versioned engine does: a version 1 path
 * (`secret/db` for `secret/data/db`) is a 404 whose warning names the svc kv command to use instead, so a
 * client written for version 1 is told why; an operation other than LIST on the root of data/, metadata/,
 * delete/, undelete/ or destroy/ is a 404 saying that only listing is done there.
 */
import { definePath } from '../framework/path.js';
import type { FieldData } from '../../framework/schema/field-data.js';
import type { SecretsRequest, SecretsResponse } from '../framework/request.js';

/** The roots whose only operation is a LIST (metadata/'s; the others have none). */
const ROOTS = new Set(['data', 'metadata', 'delete', 'undelete', 'destroy']);

export const rootRefusal = async (): Promise<SecretsResponse> => ({
  status: 404,
  warnings: ['Non-listing operations on the root of a K/V v2 mount are not supported.'],
});

export function invalidPath() {
  const answer = (command: string) => async (_req: SecretsRequest, data: FieldData): Promise<SecretsResponse> => {
    if (ROOTS.has(data.get<string>('path'))) return rootRefusal();
    return {
      status: 404,
      warnings: [
        `Invalid path for a versioned K/V secrets engine. See the API docs for the appropriate API endpoints to use. If using the svc CLI, use 'svc kv ${command}' for this operation.`,
      ],
    };
  };
  return definePath({
    pattern: '*path',
    fields: { path: { type: 'string', description: 'A path outside data/, metadata/, delete/, undelete/, destroy/, subkeys/ and config.' } },
    synopsis: 'Not a path of a version 2 mount.',
    description: 'Answers 404 with a warning naming the svc kv command to use instead, or, on the root of data/, delete/, undelete/ or destroy/, that only listing is done there.',
    operations: {
      read: { summary: 'Refuse a version 1 read.', handler: answer('get') },
      update: { summary: 'Refuse a version 1 write.', handler: answer('put') },
      delete: { summary: 'Refuse a version 1 delete.', handler: answer('delete') },
    },
  });
}
