/** auth/token/accessors: the accessors of every live token, for operators (sudo). */
import { definePath, type PathDef } from '../framework/path.js';

export const accessorsPaths: PathDef[] = [
  definePath({
    pattern: 'accessors',
    fields: {},
    sudo: true,
    synopsis: 'List token accessors.',
    description:
      'Lists the accessors of all live tokens (batch tokens have none). An accessor can look up, renew or ' +
      'revoke its token without revealing it. Needs sudo.',
    operations: {
      list: {
        summary: 'List token accessors.',
        handler: async (req) => ({ data: { keys: req.services.tokens.listAccessors() } }),
      },
    },
  }),
];
