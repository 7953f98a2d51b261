/**
 * The token settings an auth method's role carries (Vault's tokenutil): the schema shared by every role
 * endpoint and the flags of the commands that write roles. Server-free, like every field file.
 */
import type { Fields } from '../../framework/schema/field-schema.js';

export const TOKEN_TYPES = ['default', 'service', 'batch'] as const;

export const ROLE_TOKEN_FIELDS: Fields = {
  token_ttl: { type: 'duration', description: 'Initial lifetime of issued tokens; 0 means the mount default. The current value applies at renewal.' },
  token_max_ttl: { type: 'duration', description: 'Longest lifetime of issued tokens, renewals included; 0 means the mount maximum. The current value applies at renewal.' },
  token_policies: { type: 'list', description: 'Policies of issued tokens.', cli: { aliases: ['policy'], complete: 'policy' } },
  policies: { type: 'list', deprecated: 'token_policies', description: 'Deprecated: use token_policies.', cli: { hidden: true } },
  token_bound_cidrs: { type: 'list', description: 'CIDR blocks logins are allowed from; issued tokens work only from them.' },
  token_explicit_max_ttl: { type: 'duration', description: 'Hard limit on the lifetime of issued tokens, which no renewal can pass.' },
  token_no_default_policy: { type: 'bool', description: 'Do not add the "default" policy to issued tokens.' },
  token_num_uses: { type: 'int', description: 'Requests an issued token may make; 0 means unlimited (a token that creates child tokens needs 0).' },
  token_period: { type: 'duration', description: 'Issue periodic tokens: each renewal resets the lifetime to this period.' },
  token_type: {
    type: 'string',
    allowedValues: TOKEN_TYPES,
    description: 'Type of issued tokens: "service", "batch", or "default" (the mount\'s default, service).',
  },
  ttl: { type: 'duration', deprecated: 'token_ttl', description: 'Deprecated: use token_ttl.', cli: { hidden: true } },
  max_ttl: { type: 'duration', deprecated: 'token_max_ttl', description: 'Deprecated: use token_max_ttl.', cli: { hidden: true } },
  period: { type: 'duration', deprecated: 'token_period', description: 'Deprecated: use token_period.', cli: { hidden: true } },
};
