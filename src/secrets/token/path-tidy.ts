/**
 * auth/token/tidy: starts the token store's tidy (token-tidy.ts) in the background and answers 202 at
 * once, as Vault does; what it did goes to the server's log. One tidy runs at a time per store.
 */
import type { Store } from '../../storage/store.js';
import { TIDY_IN_PROGRESS, TIDY_STARTED } from '../auth/cloud/tidy.js';
import { definePath, type PathDef } from '../framework/path.js';
import { tidyTokens } from './token-tidy.js';

const running = new WeakMap<Store, Promise<unknown>>();

/** Resolves when the store's running token tidy (if any) has finished: the server waits for it before closing the store. */
export async function tokenTidySettled(store: Store): Promise<void> {
  await running.get(store);
}

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
          if (running.has(store)) return { warnings: [TIDY_IN_PROGRESS] };
          const tidyLog = log.named('tidy');
          const run = tidyTokens(store, tokens, tidyLog)
            .catch((err: Error) => tidyLog.error(`error running tidy: ${err.message}`))
            .finally(() => running.delete(store));
          running.set(store, run);
          return { status: 202, warnings: [TIDY_STARTED] };
        },
      },
    },
  }),
];
