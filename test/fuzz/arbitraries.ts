/**
 * Generators of hostile input for the endpoint fuzz tests: values for each field type (right type and
 * wrong, empty, huge, odd Unicode), path segments, and request bodies that are a valid shape with one
 * part replaced by anything JSON can hold.
 */
import fc from 'fast-check';
import type { FieldSchema } from '../../src/framework/schema/field-schema.js';

/** Strings a careless handler trips on: empty, blank, path tricks, control and wide characters, long ones. */
export const nastyString: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.string({ maxLength: 12 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 12 }) },
  { weight: 2, arbitrary: fc.constantFrom('', ' ', '.', '..', '../etc', '*', 'default', 'root', '0', '-1', 'true', 'null', '1h', '%00', '\u0000', 'a\nb', '{}', '[]', 'ébc', '🙂') },
  { weight: 1, arbitrary: fc.string({ minLength: 400, maxLength: 3000 }) },
);

/** Any JSON value, nested a little. */
export const anyJson: fc.Arbitrary<unknown> = fc.jsonValue({ maxDepth: 3 });

/** A body's text nested far deeper than any request should be (arrays, or objects around a value), sent as it is. */
export const deepJsonText: fc.Arbitrary<string> = fc
  .tuple(fc.integer({ min: 200, max: 20_000 }), fc.boolean())
  .map(([n, arrays]) => (arrays ? `${'['.repeat(n)}${']'.repeat(n)}` : `${'{"a":'.repeat(n)}1${'}'.repeat(n)}`));

const numberish = fc.oneof(fc.integer(), fc.integer({ min: -1, max: 100_000 }), fc.double(), fc.constantFrom(Number.MAX_SAFE_INTEGER, -0, 1e308));

/** A value for the field: usually of its type (well or badly formed), sometimes of any other. */
export function valueFor(field: FieldSchema): fc.Arbitrary<unknown> {
  const typed = ((): fc.Arbitrary<unknown> => {
    switch (field.type) {
      case 'string':
      case 'lowercase-string':
        return field.allowedValues ? fc.oneof(fc.constantFrom(...field.allowedValues), nastyString) : nastyString;
      case 'int':
        return fc.oneof(numberish, fc.constantFrom('12', ' 7 ', '1e3', 'x'));
      case 'bool':
        return fc.oneof(fc.boolean(), fc.constantFrom('true', 'false', '1', 'yes', ''), numberish);
      case 'duration':
        return fc.oneof(numberish, fc.constantFrom('1h', '30m', '1h30m', '-5s', '10', 'forever', '1y', '9999999999h', ''));
      case 'list':
        return fc.oneof(fc.array(nastyString, { maxLength: 5 }), nastyString, fc.array(anyJson, { maxLength: 3 }));
      case 'map':
        return fc.oneof(fc.dictionary(nastyString, nastyString, { maxKeys: 4 }), nastyString, fc.dictionary(fc.string(), anyJson, { maxKeys: 3 }));
      case 'object':
      case 'headers':
        return fc.oneof(fc.dictionary(fc.string(), anyJson, { maxKeys: 4 }), nastyString);
    }
  })();
  return fc.oneof({ weight: 5, arbitrary: typed }, { weight: 1, arbitrary: anyJson });
}

/** One path segment: a plausible name, or something nasty, as sent on the wire (percent-encoded). */
export const pathSegment: fc.Arbitrary<string> = fc
  .oneof({ weight: 3, arbitrary: fc.stringMatching(/^[a-z0-9][a-z0-9_.-]{0,15}$/) }, { weight: 2, arbitrary: nastyString.filter((s) => s !== '') })
  .map((s) => encodeURIComponent(s));

/** A copy of `shape` with one nested value (chosen by `path`) replaced by `value`; the shape itself is not changed. */
export function replaceAt(shape: unknown, path: number[], value: unknown): unknown {
  if (path.length === 0 || shape === null || typeof shape !== 'object') return value;
  const entries = Array.isArray(shape) ? shape.map((v, i) => [String(i), v] as const) : Object.entries(shape);
  if (entries.length === 0) return value;
  const [key] = entries[path[0] % entries.length];
  const copy: Record<string, unknown> | unknown[] = Array.isArray(shape) ? [...shape] : { ...(shape as Record<string, unknown>) };
  (copy as Record<string, unknown>)[key] = replaceAt((shape as Record<string, unknown>)[key], path.slice(1), value);
  return copy;
}

/** A valid shape with one part (at any depth) replaced by any JSON value. */
export function mutated(shape: unknown): fc.Arbitrary<unknown> {
  return fc.tuple(fc.array(fc.nat(), { maxLength: 6 }), anyJson).map(([path, value]) => replaceAt(shape, path, value));
}
