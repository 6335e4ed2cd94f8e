/**
 * docs/api.md's tables of the query parameters and of the endpoints, generated from
 * the declarations the function answers from (`PARAMETER_DECLARATIONS`, and the
 * OpenAPI document, itself made from the table of the function's routes,
 * src/api/routes.ts, and the static files' path items), so the manual
 * cannot drift from the contract. `npm run docs` writes them between marker comments;
 * test/unit/docs-tables.test.ts fails when the committed tables differ.
 */
import { DECLARATIONS, type JsonSchema } from "../core/answer/parameters.js";
import { renderOpenApi } from "./openapi.js";

/** A table cell: pipes escaped, line breaks flattened. */
const cell = (text: string) => text.replace(/\|/g, "\\|").replace(/\n/g, " ");

/** What a parameter's text is, from its JSON Schema: its values, its integer range, or its pattern. */
function formatOf(schema: JsonSchema): string {
  if (Array.isArray(schema.enum)) return (schema.enum as unknown[]).map((v) => `\`${String(v)}\``).join(", ");
  if (schema.type === "integer") return `integer ${String(schema.minimum)}..${String(schema.maximum)}`;
  if (typeof schema.pattern === "string") return `\`${schema.pattern}\``;
  return String(schema.type);
}

/** The table of `/api/v1/{indicator}`'s query parameters, in the canonical order: name, format, default, what it does. */
export function parameterTable(): string {
  const rows = DECLARATIONS.map((p) => {
    // The default as the schema states it (a parameter whose default is `null` in the query, `units=level`), else the value when absent.
    const fallback = (p.schema as { default?: string | number }).default ?? (p.absent as string | number | null);
    return `| \`${p.name}\` | ${cell(formatOf(p.schema))} | ${fallback === null ? "none" : `\`${fallback}\``} | ${cell(p.summary.en)} |`;
  });
  return ["| param | format | default | effect |", "|---|---|---|---|", ...rows].join("\n");
}

interface Operation {
  readonly summary: string;
  readonly parameters?: readonly { readonly name: string; readonly in: string; readonly required?: boolean }[];
}

/** The table of the API's paths and methods, from the OpenAPI document (its query parameters, a required one starred). */
export function endpointTable(): string {
  const doc = JSON.parse(renderOpenApi({ name: "", baseUrl: "", attributionText: "" }, [], [], [])) as { paths: Record<string, Record<string, Operation>> };
  const rows = Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, operation]) => {
      const query = (operation.parameters ?? []).filter((p) => p.in === "query").map((p) => `\`${p.name}\`${p.required === true ? "*" : ""}`);
      // Plain text, not a code span: docs/api.md's code spans are examples a test requests, and these paths are patterns.
      return `| ${method.toUpperCase()} ${path} | ${query.length === 0 ? "—" : query.join(", ")} | ${cell(operation.summary)} |`;
    }),
  );
  return ["| endpoint | query parameters (* required) | what it answers |", "|---|---|---|", ...rows].join("\n");
}

/** The generated tables, by the name of their markers. */
export const DOC_TABLES: Readonly<Record<string, () => string>> = { parameters: parameterTable, endpoints: endpointTable };

/**
 * `markdown` with each generated table written between its markers,
 * `<!-- generated: NAME (npm run docs) -->` and `<!-- end generated: NAME -->`.
 * @throws Error when a marker is missing.
 */
export function withTables(markdown: string): string {
  let text = markdown;
  for (const [name, table] of Object.entries(DOC_TABLES)) {
    const start = `<!-- generated: ${name} (npm run docs) -->`;
    const end = `<!-- end generated: ${name} -->`;
    const from = text.indexOf(start);
    const to = text.indexOf(end, from);
    if (from < 0 || to < 0) throw new Error(`docs: no markers for the ${name} table ("${start}" … "${end}")`);
    text = `${text.slice(0, from + start.length)}\n${table()}\n${text.slice(to)}`;
  }
  return text;
}
