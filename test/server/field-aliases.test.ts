/**
 * A field schema's aliases (other names a field is accepted under) and value aliases (other spellings of
 * its values), as FieldData applies them to every request, and as help and the generated flags show them.
 */
import { describe, expect, it } from 'vitest';
import { FieldData } from '../../src/framework/schema/field-data.js';
import type { Fields } from '../../src/framework/schema/field-schema.js';
import { flagsFromFields } from '../../src/cli/flags/from-fields.js';
import { definePath } from '../../src/secrets/framework/path.js';
import { renderPathHelp } from '../../src/secrets/framework/help.js';
import { UserError } from '../../src/shared/errors.js';

const FIELDS: Fields = {
  public_cert: { type: 'string', aliases: ['old_cert'], description: 'The cert.', required: ['create'] },
  region: { type: 'string', aliases: ['old_region', 'older_region'], description: 'A region.' },
  facts: { type: 'list', valueAliases: { old_fact: 'new_fact' }, description: 'Facts.' },
  kind: { type: 'string', allowedValues: ['new_kind'], valueAliases: { old_kind: 'new_kind' }, description: 'A kind.' },
};

const data = (raw: Record<string, unknown>, op: 'create' | 'update' = 'update') => new FieldData(raw, FIELDS, op);

function failure(raw: Record<string, unknown>, op: 'create' | 'update' = 'update'): string {
  try {
    data(raw, op);
  } catch (err) {
    expect(err).toBeInstanceOf(UserError);
    return (err as UserError).message;
  }
  throw new Error('accepted');
}

describe('field aliases', () => {
  it('a value under an alias is the field\'s, and counts as sent; no "ignored" warning', () => {
    const d = data({ old_cert: 'pem' });
    expect([d.has('public_cert'), d.get('public_cert'), d.getOk('old_cert' as never)]).toEqual([true, 'pem', undefined]);
    expect(d.warnings()).toEqual([]);
    expect(data({ old_region: 'eu' }).get('region')).toBe('eu');
    expect(data({ older_region: 'us' }).get('region')).toBe('us');
  });

  it("the field's own name wins over its alias, whichever comes first; a null own value does not count", () => {
    expect(data({ old_cert: 'alias', public_cert: 'own' }).get('public_cert')).toBe('own');
    expect(data({ public_cert: 'own', old_cert: 'alias' }).get('public_cert')).toBe('own');
    expect(data({ public_cert: null, old_cert: 'alias' }).get('public_cert')).toBe('alias');
  });

  it('a required field is satisfied by its alias; errors name the name that was sent', () => {
    expect(data({ old_cert: 'pem' }, 'create').get('public_cert')).toBe('pem');
    expect(failure({}, 'create')).toBe('missing required field "public_cert"');
    expect(failure({ old_cert: '' }, 'create')).toBe('field "old_cert" must not be empty');
    expect(failure({ old_cert: { a: 1 } })).toBe('field "old_cert" must be a string, got an object');
  });
});

describe('value aliases', () => {
  it('map a value, or each item of a list, before the allowed values are checked', () => {
    expect(data({ facts: ['a', 'old_fact'] }).get('facts')).toEqual(['a', 'new_fact']);
    expect(data({ facts: 'old_fact,b' }).get('facts')).toEqual(['new_fact', 'b']);
    expect(data({ kind: 'old_kind' }).get('kind')).toBe('new_kind');
    expect(failure({ kind: 'other' })).toMatch(/invalid value "other" for field "kind"/);
  });
});

describe('what help and the flags show', () => {
  it('path-help says which other names and values are accepted', () => {
    const help = renderPathHelp(definePath({ pattern: 'x', fields: FIELDS, synopsis: 's', description: 'd', operations: {} }), 'auth/m/');
    expect(help).toContain('The cert. Also accepted as old_cert.');
    expect(help).toContain('A region. Also accepted as old_region, older_region.');
    expect(help).toContain('Facts. The value old_fact is also accepted for new_fact.');
  });

  it('a flag takes the alias in flag form, and its description names the value aliases', () => {
    const flags = Object.fromEntries(flagsFromFields(FIELDS).map((f) => [f.name, f]));
    expect(flags['public-cert'].aliases).toEqual(['old-cert']);
    expect(flags.facts.aliases).toBeUndefined();
    expect(flags.facts.description).toContain('The value old_fact is also accepted for new_fact.');
  });
});
