/**
 * The query parameters of `/api/v1/{indicator}`, each declared once: how its text
 * parses (the value, or the `detail` of the 400, which begins with its name), how
 * the canonical URL and `meta` echo it, its JSON Schema, what it does in both
 * languages of the service, and what it cannot be combined with.
 *
 * Everything that speaks of a parameter is made from this list: the parser
 * (src/api/query.ts), the canonical URL and `meta` (src/core/answer/render.ts), OpenAPI
 * (src/builder/openapi.ts), llms.txt, the MCP tools' input schemas and URLs
 * (src/api/mcp.ts), the page's URL builder (src/site/client/questions.ts) and the
 * home page's API summary (src/site/site.ts). A new parameter is one entry here
 * plus its behaviour. Plain functions, no validation library: this module is in
 * the Worker's bundle, loaded at every cold start (docs/performance.md, the function's start).
 */
import { AGGREGATIONS, DIALECTS, FREQUENCIES, LIMIT, MAX_SERIES_ITEMS, OFFSET, UNITS, quote } from "./contract.js";
import { isCalendarDate, resolveDate } from "../time/dates.js";
import { DEFAULT_QUERY, FORMATS, type Format, type PageQuery } from "../indicator/model.js";
import { SERIES_ITEM } from "./selection.js";
import { withQuery } from "../text/url.js";
import { DAY, orNull, always, sometimes, type FieldDeclarations, type JsonSchema } from "./schema.js";

/** A text in each language of the service. */
export interface Bilingual {
  readonly es: string;
  readonly en: string;
}

/** A parameter's text that does not parse: the `detail` of its 400. */
export interface Invalid {
  readonly invalid: string;
}

export type { JsonSchema };

/** A combination that has no meaning, named by the parameter that should go. */
export interface Conflict {
  readonly when: (query: PageQuery) => boolean;
  readonly detail: (query: PageQuery) => string;
}

/**
 * What every endpoint's parameter declares (`Q` the endpoint's parsed query): how
 * its text parses, how the canonical URL echoes it, its JSON Schema, what it does
 * in both languages, what it conflicts with. `/api/v1/{indicator}`'s add how
 * `meta` and MCP take them (`ParameterDeclaration`); `/api/v1/adjust`'s are these.
 */
export interface Declared<Q> {
  readonly name: keyof Q & string;
  /**
   * The value when not given; with `required`, not given is a 400 whose detail says this.
   * An `Invalid` here is the 400's whole detail when the parameter must be given.
   */
  readonly absent: unknown;
  readonly required?: string;
  readonly parse: (text: string) => unknown;
  readonly echo: (query: Q) => string | null;
  readonly schema: JsonSchema;
  readonly description: Bilingual;
  readonly summary: Bilingual;
  readonly conflicts?: readonly { readonly when: (query: Q) => boolean; readonly detail: (query: Q) => string }[];
}

/**
 * The query the raw parameters give, by the declarations: each parameter parsed in
 * declaration order, then the combinations checked in the same order; the first
 * fault is the answer, as the detail of a 400 (which begins with the parameter's name).
 */
export function readDeclared<Q>(raw: Partial<Record<string, string>>, declarations: readonly Declared<Q>[]): Q | Invalid {
  const parsed: Record<string, unknown> = {};
  for (const p of declarations) {
    const text = raw[p.name];
    if (text === undefined && p.required !== undefined) return invalid(`${p.name}: required (${p.required})`);
    const value = text === undefined ? p.absent : p.parse(text);
    if (isInvalid(value)) return value;
    parsed[p.name] = value;
  }
  const query = parsed as Q;
  for (const p of declarations) {
    const conflict = p.conflicts?.find((c) => c.when(query));
    if (conflict !== undefined) return invalid(conflict.detail(query));
  }
  return query;
}

/** The canonical parameters of an endpoint's query: every parameter set, in declaration order, as the canonical URL writes it. */
export function canonicalParams<Q>(query: Q, declarations: readonly Declared<Q>[]): [string, string][] {
  const params: [string, string][] = [];
  for (const p of declarations) {
    const value = p.echo(query);
    if (value !== null) params.push([p.name, value]);
  }
  return params;
}

/** The canonical URL of an endpoint's query at `path` (src/core/text/url.ts writes it). */
export function canonicalUrlOf<Q>(path: string, query: Q, declarations: readonly Declared<Q>[]): string {
  return withQuery(path, canonicalParams(query, declarations));
}

/** The OpenAPI parameters of an endpoint, from its declarations. */
export function openApiParameters<Q>(declarations: readonly Declared<Q>[]) {
  return declarations.map((p) => ({ name: p.name, in: "query", required: p.required !== undefined || isInvalid(p.absent), description: p.description.en, schema: p.schema }));
}

/** The declaration of the query parameter `N`; `PageQuery[N]` is its parsed value. */
export interface ParameterDeclaration<N extends keyof PageQuery = keyof PageQuery> {
  readonly name: N;
  /** The value when the parameter is not given. */
  readonly absent: PageQuery[N];
  /** The value of a given text, or why it is not one. */
  readonly parse: (text: string) => PageQuery[N] | Invalid;
  /** How the canonical URL writes it; `null` leaves it out. */
  readonly echo: (query: PageQuery) => string | null;
  /**
   * Where `meta` echoes it: among the paging fields (`limit`, `offset`), the
   * question's (`null` when not given), after them only when given (`given`: a
   * parameter added after answers were published, whose absence must not change
   * their bytes), or not at all.
   */
  readonly meta: "paging" | "question" | "given" | null;
  /** The value `meta` echoes (by default the parsed value itself). */
  readonly metaValue?: (query: PageQuery) => unknown;
  /** With `meta`: the JSON Schema of the value `meta` echoes when the parameter is given (`null` is added for a question's). */
  readonly metaSchema?: JsonSchema;
  readonly schema: JsonSchema;
  /** What it does, in full (OpenAPI, llms.txt, MCP). */
  readonly description: Bilingual;
  /** What it does, in a few words (the home page's summary). */
  readonly summary: Bilingual;
  /** Combinations it has no meaning in; checked after every parameter parsed, in declaration order. */
  readonly conflicts?: readonly Conflict[];
  /** Whether MCP's `get_values` takes it (and as which JSON Schema, when another than `schema`). */
  readonly mcp: boolean | JsonSchema;
}

/** The detail of a 400 as a parse's answer. */
export const invalid = (detail: string): Invalid => ({ invalid: detail });

/** Whether a parse gave a detail rather than a value. */
export function isInvalid(value: unknown): value is Invalid {
  return typeof value === "object" && value !== null && "invalid" in value;
}

const DATE_EXPECTED = "expected an ISO 8601 date (YYYY-MM-DD, YYYY-MM or YYYY)";
export const DATE_SCHEMA = { type: "string", pattern: "^\\d{4}(-\\d{2}(-\\d{2})?)?$" } as const;

/** A date parameter: a day, the first or last of a month or year given with less precision. */
export const dateParse =
  (name: string, edge: "start" | "end") =>
  (text: string): string | Invalid =>
    resolveDate(text, edge) ?? invalid(`${name}: ${DATE_EXPECTED}, got ${quote(text)}`);

/** A day parameter (`as_of`, `since`): a version is in force at the end of a day, so only `YYYY-MM-DD` names one. */
export const dayParse =
  (name: string) =>
  (text: string): string | Invalid =>
    /^\d{4}-\d{2}-\d{2}$/.test(text) && isCalendarDate(text) ? text : invalid(`${name}: expected a day YYYY-MM-DD, got ${quote(text)}`);
export const DAY_SCHEMA = { type: "string", format: "date", pattern: "^\\d{4}-\\d{2}-\\d{2}$" } as const;

const dateDescription = (edge: Bilingual, effect: Bilingual): Bilingual => ({
  en: `ISO 8601 date (YYYY-MM-DD, YYYY-MM or YYYY; a reduced precision means the ${edge.en} day of that month or year). ${effect.en}`,
  es: `Fecha ISO 8601 (AAAA-MM-DD, AAAA-MM o AAAA; con menos precisión, el ${edge.es} día de ese mes o año). ${effect.es}`,
});
const FIRST = { en: "first", es: "primer" };
const LAST = { en: "last", es: "último" };
const WINDOW = { en: "The window [from, to] is inclusive.", es: "La ventana [from, to] incluye ambos extremos." };

/**
 * An integer parameter's value within `[min, max]`, or the detail of its 400: plain
 * ASCII digits only (no sign, exponent, spaces or other scripts' digits).
 */
export function integerValue(name: string, text: string, { min, max }: { min: number; max: number }): number | { detail: string } {
  const n = /^[0-9]{1,16}$/.test(text) ? Number(text) : NaN;
  return n >= min && n <= max ? n : { detail: `${name}: expected an integer from ${min} to ${max}, got ${quote(text)}` };
}

/** An integer parameter's parse: its value within `bounds`, or the detail of its 400. */
export const integerParse =
  (name: string, bounds: { min: number; max: number }) =>
  (text: string): number | Invalid => {
    const value = integerValue(name, text, bounds);
    return typeof value === "number" ? value : invalid(value.detail);
  };

/** A parameter whose value is one of `values`. */
const choiceParse =
  <T extends string>(name: string, values: readonly T[]) =>
  (text: string): T | Invalid =>
    (values as readonly string[]).includes(text) ? (text as T) : invalid(`${name}: expected ${values.join(", ")}, got ${quote(text)}`);

const echoValue = (value: string | number | null): string | null => (value === null ? null : String(value));

const FREQUENCY_NAMES = Object.keys(FREQUENCIES) as (keyof typeof FREQUENCIES)[];
/** `<indicator>:<sub-series id>`, no patterns (`per`, `by`). */
export const SERIES_REF = /^([a-z0-9][a-z0-9-]*):([a-z0-9][a-z0-9.-]*)$/;
/** {@link SERIES_REF} as `per`'s schema: in the query, in `meta.per` and in MCP's tool. */
const PER_SCHEMA = { type: "string", pattern: "^[a-z0-9][a-z0-9-]*:[a-z0-9][a-z0-9.-]*$" } as const;

/** `per` as the URL and `meta.per` carry it: `<indicator>:<sub-series>`. */
export function perText(query: PageQuery): string | null {
  return query.per === null ? null : `${query.per.indicator}:${query.per.series}`;
}

/**
 * The declarations, in the order of the canonical URL (`meta.next`, the `Link`
 * header, the ETag): every parameter that is set, in this order.
 */
/**
 * A `series` selection: ids and patterns with `*`, separated by commas. Echoed
 * deduplicated and sorted, so that the same selection always has the same URL,
 * bytes and ETag (the data endpoints and `/changes`).
 */
export function seriesParse(text: string): readonly string[] | Invalid {
  const items = text.split(",");
  const bad = items.find((item) => !SERIES_ITEM.test(item));
  if (bad !== undefined) {
    return invalid(`series: expected sub-series ids or patterns with * separated by commas (letters a-z, digits, ".", "-"), got ${quote(bad === "" ? text : bad)}`);
  }
  const unique = [...new Set(items)].sort();
  return unique.length > MAX_SERIES_ITEMS ? invalid(`series: at most ${MAX_SERIES_ITEMS} items, got ${unique.length}`) : unique;
}

/** The schema of a `series` selection. */
export const SERIES_SCHEMA = { type: "string", pattern: "^[a-z0-9.*-]+(,[a-z0-9.*-]+)*$" } as const;

/**
 * `format`, the one declaration every endpoint answering JSON or CSV shares (the
 * data endpoint, `/changes`, `/adjust`): `json` when not given, left out of the
 * canonical URL then. `description` says what the CSV holds at that endpoint.
 */
export function formatDeclaration(description: Bilingual) {
  return {
    name: "format",
    absent: "json",
    parse: (text: string): Format | Invalid => ((FORMATS as readonly string[]).includes(text) ? (text as Format) : invalid(`format: expected ${FORMATS.join(" or ")}, got ${quote(text)}`)),
    echo: (q: { readonly format: Format }): string | null => (q.format === "json" ? null : q.format),
    schema: { type: "string", enum: [...FORMATS], default: "json" },
    description,
    summary: { en: "`json` or `csv`", es: "`json` o `csv`" },
  } as const;
}

/**
 * A date parameter of the data endpoint (`from`, `to`, `at`): a day, or a month or
 * year standing for its first or last day (`edge`); echoed in `meta` with the
 * question and offered to MCP's tool with the same pattern. `own`: what the
 * parameter says of itself (its texts, what it cannot be combined with).
 */
function dateDeclaration<N extends "from" | "to" | "at">(
  name: N,
  edge: "start" | "end",
  own: Pick<ParameterDeclaration<N>, "description" | "summary" | "conflicts">,
): ParameterDeclaration<N> {
  return {
    name,
    absent: null,
    parse: dateParse(name, edge),
    echo: (q) => q[name],
    meta: "question",
    metaSchema: DAY,
    schema: DATE_SCHEMA,
    ...own,
    mcp: { ...DATE_SCHEMA, description: "A date: YYYY-MM-DD, YYYY-MM or YYYY." },
  };
}

/**
 * `limit` or `offset` of the data endpoint: an integer within `range`, its default
 * when not given, echoed in `meta` among the paging fields. `own`: its texts and
 * what MCP's tool takes.
 */
function pagingDeclaration<N extends "limit" | "offset">(
  name: N,
  range: { readonly min: number; readonly max: number; readonly default: number },
  own: Pick<ParameterDeclaration<N>, "description" | "summary" | "mcp">,
): ParameterDeclaration<N> {
  return {
    name,
    absent: range.default,
    parse: integerParse(name, range),
    echo: (q) => echoValue(q[name]),
    meta: "paging",
    metaSchema: { type: "integer", minimum: range.min, maximum: range.max },
    schema: { type: "integer", minimum: range.min, maximum: range.max, default: range.default },
    ...own,
  };
}

export const PARAMETER_DECLARATIONS = [
  dateDeclaration("from", "start", {
    description: dateDescription(FIRST, WINDOW),
    summary: { en: "the window's first day (YYYY-MM-DD, YYYY-MM or YYYY)", es: "primer día de la ventana (AAAA-MM-DD, AAAA-MM o AAAA)" },
    conflicts: [{ when: (q) => q.from !== null && q.to !== null && q.from > q.to, detail: (q) => `from: ${q.from} is later than to (${q.to})` }],
  }),
  dateDeclaration("to", "end", {
    description: dateDescription(LAST, WINDOW),
    summary: { en: "the window's last day; the window is inclusive", es: "último día de la ventana, que incluye ambos extremos" },
  }),
  dateDeclaration("at", "start", {
    description: dateDescription(FIRST, {
      en: "Per selected sub-series, the one point covering that day (its own date and value); a sub-series with none is absent. After the source's last check, a value that holds until the next answers while its successor is not due (meta.checked says the check's date); meta.missing says why a sub-series has none. Not with from, to or frequency.",
      es: "Por subserie elegida, el punto que cubre ese día (con su propia fecha y valor); una subserie sin ninguno no aparece. Después de la última comprobación de la fuente, un valor que rige hasta el siguiente responde mientras no venza el plazo del siguiente (meta.checked da la fecha de la comprobación); meta.missing dice por qué una subserie no tiene ninguno. No con from, to ni frequency.",
    }),
    summary: { en: "the value in force on a day", es: "el valor vigente un día dado" },
    conflicts: [
      { when: (q) => q.at !== null && q.from !== null, detail: () => "at: cannot be combined with from (at asks for one day; from/to for a window)" },
      { when: (q) => q.at !== null && q.to !== null, detail: () => "at: cannot be combined with to (at asks for one day; from/to for a window)" },
      { when: (q) => q.at !== null && q.frequency !== null, detail: () => "at: cannot be combined with frequency; ask for the period with from and to" },
    ],
  }),
  {
    name: "series",
    absent: null,
    parse: seriesParse,
    echo: (q) => (q.series === null ? null : q.series.join(",")),
    meta: "question",
    metaSchema: { type: "array", items: { type: "string" }, description: "The `series` asked, deduplicated and sorted." },
    schema: SERIES_SCHEMA,
    description: {
      en: `The sub-series to answer: a comma-separated list of at most ${MAX_SERIES_ITEMS} ids or patterns, where \`*\` matches any run of characters, dots included (\`casmu.*\`, \`*.consult-general-medicine.fonasa\`). An item that matches no sub-series is a 400. Echoed in \`meta.series\` and \`meta.next\` deduplicated and sorted. The ids are listed in the indicator's metadata document.`,
      es: `Las subseries a responder: una lista separada por comas de hasta ${MAX_SERIES_ITEMS} ids o patrones, donde \`*\` abarca cualquier tramo de caracteres, puntos incluidos (\`casmu.*\`, \`*.consult-general-medicine.fonasa\`). Un elemento que no corresponde a ninguna subserie da 400. \`meta.series\` y \`meta.next\` la repiten sin duplicados y ordenada. Los ids están en el documento de metadatos del indicador.`,
    },
    summary: { en: "sub-series ids or patterns with `*`, comma-separated", es: "ids de subseries o patrones con `*`, separados por comas" },
    mcp: {
      type: "array",
      items: { type: "string" },
      minItems: 1,
      maxItems: MAX_SERIES_ITEMS,
      description: "Sub-series ids or patterns with * (from search_series or get_metadata).",
    },
  },
  {
    name: "frequency",
    absent: null,
    parse: choiceParse("frequency", FREQUENCY_NAMES),
    echo: (q) => q.frequency,
    meta: "question",
    metaSchema: { type: "string", enum: FREQUENCY_NAMES },
    schema: { type: "string", enum: FREQUENCY_NAMES },
    description: {
      en: "One point per sub-series and calendar period, dated its first day, for the periods fully covered only. A stepwise indicator's values are the values in force each day (day-weighted mean); a periodic one's period holds the points dated inside it.",
      es: "Un punto por subserie y período del calendario, fechado en su primer día, solo para los períodos cubiertos enteros. En un indicador escalonado valen los valores vigentes cada día (media ponderada por días); en uno periódico, los puntos fechados dentro del período.",
    },
    summary: { en: `one value per period (${FREQUENCY_NAMES.join(", ")})`, es: `un valor por período (${FREQUENCY_NAMES.join(", ")})` },
    mcp: true,
  },
  {
    name: "aggregation",
    absent: null,
    parse: choiceParse("aggregation", AGGREGATIONS),
    echo: (q) => q.aggregation,
    meta: "question",
    metaSchema: { type: "string", enum: [...AGGREGATIONS] },
    schema: { type: "string", enum: [...AGGREGATIONS], default: "mean" },
    description: {
      en: "With frequency only: `mean` (day-weighted for a stepwise indicator), `end` (the value in force on the period's last day, or its last point), `min`, `max`.",
      es: "Solo con frequency: `mean` (ponderada por días en un indicador escalonado), `end` (el valor vigente el último día del período, o su último punto), `min`, `max`.",
    },
    summary: { en: `how a period's values combine (${AGGREGATIONS.join(", ")})`, es: `cómo se combinan los valores del período (${AGGREGATIONS.join(", ")})` },
    conflicts: [{ when: (q) => q.aggregation !== null && q.frequency === null, detail: () => "aggregation: only with frequency (how a period's values are combined)" }],
    mcp: true,
  },
  {
    name: "per",
    absent: null,
    parse: (text) => {
      const m = SERIES_REF.exec(text);
      return m === null ? invalid(`per: expected <indicator>:<sub-series id> (no patterns), got ${quote(text)}`) : { indicator: m[1] as string, series: m[2] as string };
    },
    echo: perText,
    meta: "question",
    metaSchema: PER_SCHEMA,
    metaValue: perText,
    schema: PER_SCHEMA,
    description: {
      en: "`<indicator>:<sub-series id>`: each value divided by that sub-series' value covering the same days (with frequency, on the same periods): a step wherever either changes. Not with real.",
      es: "`<indicador>:<id de subserie>`: cada valor dividido por el valor de esa subserie que cubre los mismos días (con frequency, en los mismos períodos): un escalón donde cambia cualquiera de los dos. No con real.",
    },
    summary: { en: "each value as a ratio to another sub-series (`indicator:series`)", es: "cada valor como cociente de otra subserie (`indicador:subserie`)" },
    mcp: { ...PER_SCHEMA, description: "<indicator>:<sub-series id>" },
  },
  {
    name: "real",
    absent: null,
    /** A month, `YYYY-MM` only (the deflator is monthly). */
    parse: (text) => (/^\d{4}-\d{2}$/.test(text) && resolveDate(text, "start") !== null ? text : invalid(`real: expected a month YYYY-MM, got ${quote(text)}`)),
    echo: (q) => q.real,
    meta: "question",
    metaSchema: { type: "string", pattern: "^\\d{4}-\\d{2}$" },
    schema: { type: "string", pattern: "^\\d{4}-\\d{2}$" },
    description: {
      en: "`YYYY-MM`: values in money of that month, × the deflator's value that month / its value in the point's month (with frequency, its mean over the period's months). Only for a unit an indicator declares it deflates (`deflates` in its indicator.json).",
      es: "`AAAA-MM`: valores en dinero de ese mes, × el valor del deflactor ese mes / su valor en el mes del punto (con frequency, su media en los meses del período). Solo para una unidad que un indicador declara deflactar (`deflates` en su indicator.json).",
    },
    summary: { en: "values in money of a month (`YYYY-MM`), deflated by the CPI", es: "valores en dinero de un mes (`AAAA-MM`), deflactados por el IPC" },
    conflicts: [{ when: (q) => q.real !== null && q.per !== null, detail: () => "real: cannot be combined with per (a ratio has no pesos to deflate)" }],
    mcp: { type: "string", pattern: "^\\d{4}-\\d{2}$", description: "YYYY-MM" },
  },
  {
    name: "units",
    absent: null,
    /** `level`, the default, is `null`: one canonical query. */
    parse: (text) => {
      const value = choiceParse("units", UNITS)(text);
      return value === "level" ? null : value;
    },
    echo: (q) => q.units,
    meta: "question",
    metaSchema: { type: "string", enum: UNITS.filter((u) => u !== "level"), description: "`null` for level." },
    schema: { type: "string", enum: [...UNITS], default: "level" },
    description: {
      en: "`change` / `percent_change` against the previous point when its coverage ends where this one begins; `change_a_year_ago` / `percent_change_a_year_ago` against the value covering the same day a year earlier; `index`: 100 × value / the value covering `base`. Percentages are × 100; a divisor of 0 gives no point.",
      es: "`change` / `percent_change` frente al punto anterior cuando su cobertura termina donde empieza este; `change_a_year_ago` / `percent_change_a_year_ago` frente al valor que cubre el mismo día un año antes; `index`: 100 × valor / el valor que cubre `base`. Los porcentajes van × 100; un divisor 0 no da punto.",
    },
    summary: { en: "changes, changes on a year earlier or an index (with `base`)", es: "variaciones, variaciones interanuales o un índice (con `base`)" },
    mcp: true,
  },
  {
    name: "base",
    absent: null,
    parse: dateParse("base", "start"),
    echo: (q) => q.base,
    meta: "question",
    metaSchema: DAY,
    schema: DATE_SCHEMA,
    description: dateDescription(FIRST, {
      en: "With units=index only (and required by it): the day whose value is 100.",
      es: "Solo con units=index (que la exige): el día cuyo valor es 100.",
    }),
    summary: { en: "with `units=index`: the day whose value is 100", es: "con `units=index`: el día cuyo valor es 100" },
    conflicts: [
      { when: (q) => q.units === "index" && q.base === null, detail: () => "base: required with units=index (the date whose value is 100)" },
      { when: (q) => q.units !== "index" && q.base !== null, detail: () => "base: only with units=index" },
    ],
    mcp: { ...DATE_SCHEMA, description: "A date: YYYY-MM-DD, YYYY-MM or YYYY." },
  },
  {
    name: "as_of",
    absent: null,
    parse: dayParse("as_of"),
    echo: (q) => q.as_of,
    meta: "given",
    metaSchema: DAY,
    schema: DAY_SCHEMA,
    description: {
      en: "`YYYY-MM-DD`: the answer as the service published it at the end of that day (UTC): the points, values and coverage of the data version in force then, every other parameter applied to it (real deflates by the index as it was known then). A day before the indicator's first published version, or after today, is a 400; a day on or after the current version answers as today. Echoed in `meta.as_of` (absent without it).",
      es: "`AAAA-MM-DD`: la respuesta tal como el servicio la publicaba al final de ese día (UTC): los puntos, valores y cobertura de la versión de los datos vigente entonces, con los demás parámetros aplicados (real deflacta con el índice tal como se conocía entonces). Un día anterior a la primera versión publicada del indicador, o posterior a hoy, da 400; un día desde la versión actual responde como hoy. `meta.as_of` lo repite (no aparece sin él).",
    },
    summary: { en: "the answer as published at the end of a past day (`YYYY-MM-DD`)", es: "la respuesta tal como se publicaba al final de un día pasado (`AAAA-MM-DD`)" },
    mcp: { type: "string", pattern: "^\\d{4}-\\d{2}-\\d{2}$", description: "YYYY-MM-DD: the values as the service published them at the end of that day (UTC)." },
  },
  pagingDeclaration("limit", LIMIT, {
    description: { en: "Points per sub-series, counted from the newest.", es: "Puntos por subserie, contados desde el más reciente." },
    summary: { en: `points per sub-series (${LIMIT.min}–${LIMIT.max}, default ${LIMIT.default})`, es: `puntos por subserie (${LIMIT.min}–${LIMIT.max}, por defecto ${LIMIT.default})` },
    mcp: { type: "integer", minimum: LIMIT.min, maximum: LIMIT.max },
  }),
  pagingDeclaration("offset", OFFSET, {
    description: { en: "Points skipped per sub-series, from the newest end.", es: "Puntos que se saltean por subserie, desde el extremo más reciente." },
    summary: { en: "points skipped per sub-series (≥ 0)", es: "puntos salteados por subserie (≥ 0)" },
    mcp: false,
  }),
  {
    ...formatDeclaration({
      en: "`json` (default) or `csv`: the same answer as RFC 4180 CSV with the columns of data.csv; what `meta` carries comes in `Link` and `X-Total-Count`.",
      es: "`json` (por defecto) o `csv`: la misma respuesta en CSV RFC 4180 con las columnas de data.csv; lo que lleva `meta` va en `Link` y `X-Total-Count`.",
    }),
    meta: null,
    mcp: false,
  },
  {
    name: "dialect",
    absent: null,
    /** `rfc4180`, the default, is `null`: one canonical query. */
    parse: (text) => {
      const value = choiceParse("dialect", DIALECTS)(text);
      return value === "es" ? "es" : isInvalid(value) ? value : null;
    },
    echo: (q) => q.dialect,
    meta: null,
    schema: { type: "string", enum: [...DIALECTS], default: "rfc4180" },
    description: {
      en: "With format=csv: `rfc4180` (default: `,` separator, decimal point, LF) or `es`, the CSV Spanish-locale spreadsheets (Excel, Google Sheets, LibreOffice in es_UY) open as they are: `;` separator, decimal comma, numbers without exponents, CRLF, UTF-8 with a byte order mark. Every indicator's whole CSV in this dialect is also a static file, data.es.csv.",
      es: "Con format=csv: `rfc4180` (por defecto: separador `,`, punto decimal, LF) o `es`, el CSV que las planillas en español (Excel, Google Sheets, LibreOffice en es_UY) abren tal cual: separador `;`, coma decimal, números sin exponentes, CRLF, UTF-8 con marca de orden de bytes. El CSV entero de cada indicador en este dialecto es también un archivo estático, data.es.csv.",
    },
    summary: { en: "with `format=csv`: `es`, the CSV Spanish spreadsheets open", es: "con `format=csv`: `es`, el CSV que abren las planillas en español" },
    conflicts: [{ when: (q) => q.dialect !== null && q.format !== "csv", detail: () => "dialect: only with format=csv (the CSV a spreadsheet opens)" }],
    mcp: false,
  },
  {
    name: "provenance",
    absent: null,
    /** Opt-in, so that every answer without it keeps its bytes: `false`, the default, is `null`. */
    parse: (text) => (text === "true" ? true : text === "false" ? null : invalid(`provenance: expected true or false, got ${quote(text)}`)),
    echo: (q) => (q.provenance === null ? null : "true"),
    meta: null,
    schema: { type: "string", enum: ["true", "false"], default: "false" },
    description: {
      en: "`true`: each item of `data` also carries its point's `note` (as written in the data, or null), `source` (the address it cites, or null) and `source_kind` (official, official-republication, republication, press, reference or computed, as the indicator's metadata declares; null for a point citing nothing and for a derived value, which has no source of its own). JSON only: the CSV has source and note in every line.",
      es: "`true`: cada elemento de `data` lleva además la nota de su punto (`note`, tal como está en los datos, o null), la dirección que cita (`source`, o null) y el tipo de esa fuente (`source_kind`: official, official-republication, press, reference o computed, como lo declaran los metadatos del indicador; null para un punto sin fuente y para un valor derivado, que no tiene fuente propia). Solo JSON: el CSV trae source y note en cada línea.",
    },
    summary: { en: "`true`: each value with its note, source and kind of source", es: "`true`: cada valor con su nota, su fuente y el tipo de fuente" },
    conflicts: [{ when: (q) => q.provenance !== null && q.format === "csv", detail: () => "provenance: only with format=json (the CSV has source and note in every line)" }],
    mcp: false,
  },
] as const satisfies readonly { [N in keyof PageQuery]: ParameterDeclaration<N> }[keyof PageQuery][];

/** The parameter names in canonical order; any other is a 400. */
export const PARAMETERS = PARAMETER_DECLARATIONS.map((p) => p.name);
export type Parameter = (typeof PARAMETER_DECLARATIONS)[number]["name"];

/** Every declaration as the common shape (the tuple above keeps each one's own types). */
export const DECLARATIONS: readonly ParameterDeclaration[] = PARAMETER_DECLARATIONS;

/** The canonical parameters of a data endpoint's query: every parameter set, in declaration order. */
export function canonicalQuery(query: PageQuery): [string, string][] {
  return canonicalParams(query, DECLARATIONS);
}

/**
 * The shortest parameters asking the same as `query`: the canonical order, but a
 * parameter at its default left out (`limit=500`, `offset=0`). The addresses
 * people read: the pages' API links, the URL an MCP result cites.
 */
export function shortParams(query: PageQuery): [string, string][] {
  const params: [string, string][] = [];
  for (const p of DECLARATIONS) {
    const value = p.echo(query);
    if (value !== null && value !== p.echo(DEFAULT_QUERY)) params.push([p.name, value]);
  }
  return params;
}

/** The parameters `meta` echoes in `group`, in declaration order, with their values (`given`: only those set). */
export function metaEcho(query: PageQuery, group: "paging" | "question" | "given"): Record<string, unknown> {
  const echo: Record<string, unknown> = {};
  for (const p of DECLARATIONS) {
    if (p.meta !== group) continue;
    const value = p.metaValue === undefined ? query[p.name] : p.metaValue(query);
    if (group !== "given" || value !== null) echo[p.name] = value;
  }
  return echo;
}

/**
 * The fields of `meta` that echo the parameters of `group`, in declaration order:
 * a question's value is `null` when not given; a `given` one is absent then.
 */
export function metaFields(group: "paging" | "question" | "given"): FieldDeclarations {
  const fields: Record<string, FieldDeclarations[string]> = {};
  for (const p of DECLARATIONS) {
    if (p.meta !== group) continue;
    if (p.metaSchema === undefined) throw new Error(`${p.name}: meta echoes it, but it declares no metaSchema`);
    fields[p.name] = group === "given" ? sometimes({ ...p.metaSchema, description: `Echoes \`${p.name}\`; absent without it.` }) : always(group === "question" ? orNull(p.metaSchema) : p.metaSchema);
  }
  return fields;
}
