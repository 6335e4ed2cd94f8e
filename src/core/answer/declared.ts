/**
 * Parameters that more than one endpoint declares alike (src/core/answer/parameters.ts
 * `Declared`): the `format` of an answer in JSON or CSV, and the pager's `limit`
 * and `offset`. Each endpoint gives its own words; the parsing is one.
 */
import { quote } from "./contract.js";
import { FORMATS, type Format } from "../indicator/model.js";
import { integerValue, invalid, type Bilingual, type Declared } from "./parameters.js";

/** `format`: `json` (the default) or `csv`, as `description` says of this endpoint's CSV. */
export function formatDeclared<Q extends { readonly format: Format }>(description: Bilingual): Declared<Q> {
  return {
    name: "format",
    absent: "json",
    parse: (text) => ((FORMATS as readonly string[]).includes(text) ? text : invalid(`format: expected ${FORMATS.join(" or ")}, got ${quote(text)}`)),
    echo: (q) => (q.format === "json" ? null : q.format),
    schema: { type: "string", enum: [...FORMATS], default: "json" },
    description,
    summary: { en: "`json` or `csv`", es: "`json` o `csv`" },
  };
}

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
