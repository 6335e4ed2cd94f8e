/**
 * The answers' JSON Schemas (OpenAPI 3.1, JSON Schema 2020-12), made from their
 * fields' declarations. Each answer object declares its fields once, beside the
 * code that writes them (`answerMeta` in src/core/answer/render.ts, the changes,
 * the adjustment, search, the error object, status.json, the catalog and the
 * metadata document), and OpenAPI is generated from those declarations
 * (src/builder/openapi.ts). Every object is closed
 * (`additionalProperties: false`): a field the code writes but does not declare
 * makes the answer invalid against the published document, and the system test
 * (test/e2e/openapi.test.ts) validates the served answers against it.
 */

/** The JSON Schema of a value (OpenAPI 3.1 and MCP tool inputs). */
export type JsonSchema = Readonly<Record<string, unknown>>;

/** One field of an answer object: its schema, and whether it is written only in some answers. */
export interface FieldDeclaration {
  readonly schema: JsonSchema;
  /** True when some answers leave the field out (the schema's description says when). */
  readonly optional?: true;
}

/** An answer object's fields, in the order the code writes them. */
export type FieldDeclarations = Readonly<Record<string, FieldDeclaration>>;

/** A field every answer writes. */
export const always = (schema: JsonSchema): FieldDeclaration => ({ schema });

/** A field only some answers write: its description says when. */
export const sometimes = (schema: JsonSchema): FieldDeclaration => ({ schema, optional: true });

/** The schema of a day, `YYYY-MM-DD`. */
export const DAY = { type: "string", format: "date" } as const;

/** The schema of a day or `null`. */
export const DAY_OR_NULL = { type: ["string", "null"], format: "date" } as const;

/** The schema of a text in Spanish and English. */
export const LOCALIZED = { type: "object", required: ["es", "en"], properties: { es: { type: "string" }, en: { type: "string" } }, additionalProperties: false } as const;

/**
 * The closed object schema of `fields`: every field named, the ones always
 * written required, and no other field allowed.
 */
export function closedObject(fields: FieldDeclarations, description?: string): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  for (const [name, field] of Object.entries(fields)) {
    properties[name] = field.schema;
    if (field.optional !== true) required.push(name);
  }
  return { type: "object", ...(description === undefined ? {} : { description }), required, properties, additionalProperties: false };
}

/** `schema` that may also be `null` (its `type` widened, and `null` added to its `enum`). */
export function orNull(schema: JsonSchema): JsonSchema {
  const type = schema.type;
  const types = Array.isArray(type) ? (type as string[]) : type === undefined ? [] : [type as string];
  const widened: Record<string, unknown> = { ...schema, type: types.includes("null") ? types : [...types, "null"] };
  if (Array.isArray(schema.enum) && !(schema.enum as unknown[]).includes(null)) widened.enum = [...(schema.enum as unknown[]), null];
  return widened;
}
