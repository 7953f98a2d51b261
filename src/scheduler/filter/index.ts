/**
 * Filter expressions for list endpoints (`?filter=`), in go-bexpr's grammar so that filters written for
 * Nomad work unchanged. Parse once per request, then call the predicate per item.
 */
import { evaluate } from './evaluate.js';
import { parseFilter } from './parser.js';

export { FilterSyntaxError } from './lexer.js';
export { parseFilter } from './parser.js';
export type { Binding, CollectionExpr, Expr, MatchExpr, MatchOp, Selector } from './parser.js';

/**
 * Compiles `expr` into a predicate over a JSON datum (the full object, not a list stub). Throws
 * UserError `failed to read filter expression: <line>:<col> (<offset>): <reason>` for a bad expression;
 * the predicate throws UserError (`error finding value in datum: …` / `error evaluating filter …`) when
 * a datum cannot be evaluated, e.g. `matches` on a number.
 */
export function compileFilter(expr: string): (datum: unknown) => boolean {
  const ast = parseFilter(expr);
  return (datum) => evaluate(ast, datum);
}
