/**
 * docs/api.md's parameter and endpoint tables are the ones the declarations give
 * (src/builder/docs-tables.ts): a change of a parameter or an endpoint without
 * `npm run docs` fails here.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { DECLARATIONS } from "../../src/core/answer/parameters.js";
import { parameterTable, withTables } from "../../src/builder/docs-tables.js";
import { ROOT } from "../files.js";

const API_MD = readFileSync(join(ROOT, "docs/api.md"), "utf8");

describe("docs/api.md's generated tables", () => {
  it("are the tables the declarations give (run npm run docs after changing them)", () => {
    expect(withTables(API_MD)).toBe(API_MD);
  });

  it("differ when a committed row does not match its declaration (the check can fail)", () => {
    const edited = API_MD.replace("| `limit` | integer 1..5000 |", "| `limit` | integer 1..9999 |");
    expect(edited).not.toBe(API_MD);
    expect(withTables(edited)).not.toBe(edited);
    expect(withTables(edited)).toBe(API_MD);
  });

  it("list every parameter, in the canonical order", () => {
    const names = [...parameterTable().matchAll(/^\| `([a-z_]+)` \|/gm)].map((m) => m[1]);
    expect(names).toEqual(DECLARATIONS.map((p) => p.name));
  });

  it("need their markers", () => {
    expect(() => withTables("# no markers")).toThrow(/no markers for the parameters table/);
  });
});
