/**
 * What the numbers of each `units` mode are, in both languages: the metadata
 * document lists them (`units`), so a client labels a derived answer without
 * knowing the indicator (docs/time.md). `real` and `per` are
 * described by their own labels; a `real` answer keeps the mode's unit.
 */
import type { Units } from "../answer/contract.js";
import type { Localized } from "../text/i18n.js";

/** The labels of the modes of an indicator whose unit reads `unit` (its display label, or its code). */
export function unitLabels(unit: Localized): Record<Units | "real" | "per", Localized> {
  return {
    level: unit,
    change: { es: `variación respecto del valor anterior, en ${unit.es}`, en: `change from the previous value, in ${unit.en}` },
    percent_change: { es: "variación respecto del valor anterior (%)", en: "percent change from the previous value (%)" },
    change_a_year_ago: { es: `variación respecto de un año antes, en ${unit.es}`, en: `change from a year earlier, in ${unit.en}` },
    percent_change_a_year_ago: { es: "variación respecto de un año antes (%)", en: "percent change from a year earlier (%)" },
    index: { es: "índice (el valor en la fecha base = 100)", en: "index (the value on the base date = 100)" },
    real: { es: `${unit.es}, a valores del mes de real (deflactado por el índice declarado)`, en: `${unit.en}, in money of the real month (deflated by the declared index)` },
    per: { es: "cociente: el valor dividido por el del divisor de per", en: "ratio: the value divided by the per divisor's value" },
  };
}
