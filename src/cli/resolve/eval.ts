/** Evaluation ID prefixes, for the eval commands. */
import type { ApiClient } from '../../api/http/client.js';
import { listEvals, type Evaluation } from '../../api/evals.js';
import { evalListTable, newestFirst } from '../output/nomad.js';
import { resolveByPrefix } from '../prefix.js';

export function resolveEval(client: ApiClient, typed: string, verbose: boolean): Promise<Evaluation> {
  return resolveByPrefix<Evaluation>(
    {
      plural: 'evaluations',
      uuid: true,
      notFound: (prefix) => `No evaluation(s) with prefix or id "${prefix}" found`,
      list: async (prefix) => newestFirst((await listEvals(client, { prefix })).evals),
      idOf: (e) => e.ID,
      table: (evals) => evalListTable(evals, verbose),
    },
    typed,
  );
}
