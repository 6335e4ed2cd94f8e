/**
 * Parameters that more than one endpoint declares alike (src/core/answer/parameters.ts
 * `Declared`): the pager's `limit` and `offset` (the `format` of an answer is
 * parameters.ts `formatDeclaration`). Each endpoint gives its own words; the parsing is one.
 */
import { integerValue, invalid, type Bilingual, type Declared } from "./parameters.js";

/** A paging parameter: an integer within `bounds`, `bounds.default` when absent, echoed always. */
export function pagingDeclared<Q extends Record<N, number>, N extends keyof Q & string>(
  name: N,
  bounds: { readonly min: number; readonly max: number; readonly default: number },
  words: { readonly description: Bilingual; readonly summary: Bilingual },
): Declared<Q> {
  return {
    name,
    absent: bounds.default,
    parse: (text) => {
      const value = integerValue(name, text, bounds);
      return typeof value === "number" ? value : invalid(value.detail);
    },
    echo: (q) => String(q[name]),
    schema: { type: "integer", minimum: bounds.min, maximum: bounds.max, default: bounds.default },
    ...words,
  };
}
