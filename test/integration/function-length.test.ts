/**
 * The lint rule that keeps functions in src/ at 80 lines at most
 * (scripts/lint/function-length.js, `house/function-length` in eslint.config.js):
 * what it measures, where a function begins, and that it exempts only a body that
 * is one literal. Run by ESLint's own Linter with the project's parser; the rule
 * itself runs over src/ in the lint of `npm test`.
 */
import { createRequire } from "node:module";
import { Linter } from "eslint";
import { describe, expect, it } from "vitest";
import functionLength from "../../scripts/lint/function-length.js";

/**
 * The project's parser (eslint.config.js's), required by name: an `import` would bring
 * typescript-eslint's 124 declaration files into the type-check of every `npm test`.
 */
const parser = (createRequire(import.meta.url)("typescript-eslint") as { parser: Linter.Parser }).parser;

/** The functions of `text` the rule reports at `max` lines, as "name lines@line". */
function reported(text: string, max: number): string[] {
  const linter = new Linter({ configType: "flat" });
  const messages = linter.verify(text, [
    {
      files: ["**/*.ts"],
      languageOptions: { parser },
      plugins: { house: { rules: { "function-length": functionLength } } },
      rules: { "house/function-length": ["error", { max }] },
    },
  ], "x.ts");
  return messages.map((m) => {
    expect(m.ruleId, m.message).toBe("house/function-length");
    const [, name, lines] = /^(.*) is (\d+) lines long \(at most \d+\)/.exec(m.message) ?? [];
    return `${name} ${lines}@${m.line}`;
  });
}

describe("house/function-length", () => {
  const text = [
    "function a() {", "  return 1;", "}",
    "const b = () => ({", "  x: 1,", "});",
    "class C {", "  m() {", "    const f = function () {", "      return [];", "    };", "    return f;", "  }", "}",
    "const s = (t: boolean) => z.object({", "  a: t,", "} as const);",
    "function table() {", "  const row = { a: 1 };", "  return [row];", "}",
    "function notTable() {", "  let row = { a: 1 };", "  return [row];", "}",
    "const call = () => f(x);",
    "const o = {", "  get g() {", "    return 1;", "  },", "  async h() {", "    return 2;", "  },", "};",
  ].join("\n");

  it("measures functions, methods, accessors and arrows from their first line to their last, nested ones inside their parent's count", () => {
    expect(reported(text, 1)).toEqual(["a 3@1", "m 6@8", "notTable 4@22", "g 3@28", "h 3@31"]);
    expect(reported(text, 3)).toEqual(["m 6@8", "notTable 4@22"]);
    expect(reported(text, 6)).toEqual([]);
  });

  it("exempts only a body that is one literal, or one call of literals, after nothing but literal constants", () => {
    // b, f, s and table are 3 to 4 lines and never reported; a call of something else is.
    const literalFree = ["const d = () => f({", "  x: 1,", "}, y);"].join("\n");
    expect(reported(literalFree, 2)).toEqual(["d 3@1"]);
    for (const name of ["b", "f", "s", "table"]) expect(reported(text, 1).some((r) => r.startsWith(`${name} `)), name).toBe(false);
  });
});
