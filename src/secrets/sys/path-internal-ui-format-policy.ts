/**
 * sys/internal/ui/format-policy: `svc policy fmt` for the web UI's policy editor, which may not load the
 * policy parser or the HCL formatter itself. The text is checked exactly as a policy write checks it, then
 * laid out as `svc policy fmt` lays out a file, so what the editor shows is what the command would write.
 * It stores nothing and reads nothing, so the built-in `default` policy grants it to every token.
 */
import { UserError } from '../../shared/errors.js';
import { formatHcl } from '../../shared/hcl/format.js';
import { definePath } from '../framework/path.js';
import { parsePolicy, validatePolicyName } from '../policy/policy.js';

/** A name only labels a parse error, as the policy's own write would word it. */
const UNNAMED = 'policy';

function labelOf(name: string): string {
  if (name === '') return UNNAMED;
  try {
    return validatePolicyName(name);
  } catch (err) {
    throw new UserError(`field "name": ${(err as Error).message}`);
  }
}

export const internalUiFormatPolicyPaths = [
  definePath({
    pattern: 'internal/ui/format-policy',
    fields: {
      policy: { type: 'string', description: 'The policy document, in HCL.', required: true },
      name: {
        type: 'lowercase-string',
        description: 'The name the policy will be written under; it only labels a parse error ("failed to parse policy \\"<name>\\"").',
      },
    },
    synopsis: 'Lay out an HCL policy as `svc policy fmt` does.',
    description:
      'Checks the policy as a write to sys/policies/acl would, and answers its text in the canonical layout ' +
      '(two spaces per level, the "=" of consecutive attributes aligned, comments and order kept) as "policy". ' +
      'A policy that does not parse is refused with the parser\'s message, which names the line and column; ' +
      'a JSON policy is refused, since JSON has no layout of its own to restore. Nothing is stored.',
    operations: {
      update: {
        summary: 'Format a policy.',
        handler: async (_req, data) => {
          const text = data.get<string>('policy');
          const name = labelOf(data.get<string>('name'));
          if (text.trimStart().startsWith('{')) throw new UserError('JSON policies are not formatted');
          await parsePolicy(name, text);
          return { data: { policy: formatHcl(text) } };
        },
      },
    },
  }),
];
