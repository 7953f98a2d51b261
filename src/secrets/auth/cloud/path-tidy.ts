/**
 * auth/cloud/tidy/identity-accesslist and auth/cloud/tidy/roletag-denylist: start a tidy now. The answer
 * comes before the work is done — 202 with a warning saying so, as Vault answers — and the count of
 * removed entries goes to the server log.
 */
import { UserError } from '../../../shared/errors.js';
import { definePath } from '../../framework/path.js';
import { TIDY_FIELDS } from './fields.js';
import { TIDY_LISTS, type TidyList } from './path-config-tidy.js';
import { TIDY_IN_PROGRESS, TIDY_STARTED, type Tidies } from './tidy.js';

const ACCEPTED = 202;

function tidyPath(tidies: Tidies, list: TidyList) {
  const what = list === 'identity-accesslist' ? 'identity access list' : 'role tag deny list';
  return definePath({
    pattern: `tidy/${list}`,
    fields: TIDY_FIELDS,
    synopsis: `Remove expired entries of the ${what}.`,
    description: `Starts removing, in the background, the entries of the ${what} whose expiration time plus safety_buffer has passed.`,
    operations: {
      update: {
        summary: 'Start a tidy.',
        handler: async (req, data) => {
          const buffer = data.get<number>('safety_buffer');
          // A negative buffer would remove entries before they expire, and so lift deny-listings early.
          if (buffer < 0) throw new UserError('safety_buffer cannot be negative');
          if (!tidies.start(req.services, req.mountAccessor, list, buffer)) return { warnings: [TIDY_IN_PROGRESS] };
          return { status: ACCEPTED, warnings: [TIDY_STARTED] };
        },
      },
    },
  });
}

/** The tidy paths; `tidies` runs what they start. */
export const tidyPaths = (tidies: Tidies) => TIDY_LISTS.map((list) => tidyPath(tidies, list));
