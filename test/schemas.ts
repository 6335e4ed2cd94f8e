/**
 * The tests' validator of an answer against an OpenAPI document: ajv (JSON Schema
 * 2020-12, the dialect of OpenAPI 3.1) with the formats it names (`date`, `uri`),
 * the schema found by JSON pointer into the document so that its `$ref`s to
 * `#/components/schemas/…` resolve; and the static documents of a build it declares.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import fg from "fast-glob";

// ajv-formats is CommonJS: under ESM its function may sit on `.default`.
const addFormats = (addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ?? addFormatsModule;

/** A JSON pointer's token (RFC 6901 §4). */
const token = (text: string) => text.replace(/~/g, "~0").replace(/\//g, "~1");

/** Per OpenAPI document, its ajv instance (the document added once) and its compiled answer validators by pointer. */
const compiled = new WeakMap<object, { ajv: Ajv2020; validators: Map<string, ValidateFunction> }>();

function compiledFor(doc: object): { ajv: Ajv2020; validators: Map<string, ValidateFunction> } {
  let known = compiled.get(doc);
  if (known === undefined) {
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(ajv);
    ajv.addSchema({ ...doc, $id: "openapi.json" });
    compiled.set(doc, (known = { ajv, validators: new Map() }));
  }
  return known;
}

/** ajv with the OpenAPI document `doc` added as `openapi.json` (its schemas by pointer: `openapi.json#/components/schemas/Page`), made once per document. */
export function openApiAjv(doc: object): Ajv2020 {
  return compiledFor(doc).ajv;
}

/**
 * A validator of the JSON answer `status` of `method` `route` as `doc` (an OpenAPI
 * document) declares it. Compiled once per document, route, method and status (a
 * compile costs 100–200 ms and a file asks for the same one many times); `errors`
 * belongs to the last call.
 */
export function responseValidator(doc: object, route: string, status: number, method = "get"): ValidateFunction {
  const { ajv, validators } = compiledFor(doc);
  const pointer = `openapi.json#/paths/${token(route)}/${method}/responses/${status}/content/application~1json/schema`;
  let validate = validators.get(pointer);
  if (validate === undefined) validators.set(pointer, (validate = ajv.compile({ $ref: pointer })));
  return validate;
}

/** A JSON document of a build and the GET route that declares it. */
export interface StaticDocument {
  /** Its file, relative to the build's folder. */
  readonly file: string;
  readonly route: string;
  readonly body: Record<string, unknown>;
}

/** The catalog and every metadata document of the build in `dir`, in file order, each with the route OpenAPI declares it under. */
export function staticDocuments(dir: string): StaticDocument[] {
  const read = (file: string) => JSON.parse(readFileSync(join(dir, file), "utf8")) as Record<string, unknown>;
  const metadata = fg.sync("api/v1/*/metadata.json", { cwd: dir }).sort();
  return [{ file: "api/v1/index.json", route: "/api/v1/index.json", body: read("api/v1/index.json") }, ...metadata.map((file) => ({ file, route: "/api/v1/{indicator}/metadata.json", body: read(file) }))];
}
