/**
 * auth/token/tidy: starts the token store's tidy (token-tidy.ts) in the background and answers 202 at
 * once, as Vault does; what it did goes to the server's log. One tidy runs at a time per store.
 */
import type { Store } from '../../storage/store.js';
import { definePath, type PathDef } from '../framework/path.js';
import { tidyTokens } from './token-tidy.js';

const running = new WeakSet<Store>();

export const tidyPaths: PathDef[] = [
  definePath({
    pattern: 'tidy',
    fields: {},
    synopsis: 'Clean up token index entries left behind by errors.',
    description:
      'Revokes expired tokens with their children, deletes accessor and parent index entries whose token is ' +
      'gone, and makes orphans of tokens whose parent is gone. Runs in the background; its results are in the ' +
      'server log. Usually not needed.',
    operations: {
      update: {
        summary: 'Tidy the token store.',
        handler: async (req) => {
          const { store, tokens, log } = req.services;
          if (running.has(store)) return { warnings: ['Tidy operation already in progress.'] };
          running.add(store);
          const tidyLog = log.named('tidy');
          void tidyTokens(store, tokens, tidyLog)
            .catch((err: Error) => tidyLog.error(`error running tidy: ${err.message}`))
            .finally(() => running.delete(store));
          return {
            status: 202,
            warnings: ["Tidy operation successfully started. Any information from the operation will be printed to the server logs."],
          };
        },
      },
    },
  }),
];
