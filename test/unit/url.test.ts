import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { NO_SEPARATORS, isHttpUrl, queryString, withQuery } from "../../src/core/text/url.js";
import { ROOT } from "../files.js";

describe("isHttpUrl", () => {
  it.each([
    ["https://www.gub.uy/ministerio-salud-publica", true],
    ["http://example.org/a.csv", true],
    ["https://www.ine.gub.uy/ipc.xlsx", true],
    ["ipc.xlsx", false],
    ["HTTPS://example.org", true],
    ["ftp://example.org/a.csv", false],
    ["javascript:alert(1)", false],
    ["example.org/a.csv", false],
    ["/api/v1/index.json", false],
    ["", false],
  ])("%j → %s", (text, expected) => {
    expect(isHttpUrl(text)).toBe(expected);
  });
});

/** The lines of a source text that build a query string by hand: an interpolated `?${…}` or `name=${…}`, or parts joined by `&`. */
function handBuiltQueries(text: string): string[] {
  const patterns = [/\?\$\{/, /[?&][A-Za-z_]+=\$\{/, /\.join\(\s*["'`]&["'`]\s*\)/];
  return text.split("\n").filter((line) => patterns.some((p) => p.test(line)));
}

/** Every .ts file under `dir`. */
function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? sources(path) : entry.name.endsWith(".ts") ? [path] : [];
  });
}

describe("the one URL writer (queryString, withQuery)", () => {
  it("writes pairs in order, escapes what a query must, keeps the list separators unless told not to", () => {
    expect(withQuery("/api/v1/x", [["series", "a.*,b"], ["per", "cpi:general"], ["q", "a b&c=d+e#f"]])).toBe("/api/v1/x?series=a.*,b&per=cpi:general&q=a%20b%26c%3Dd%2Be%23f");
    expect(withQuery("/api/v1/search", [["facet", "provider:casmu,regime:sin fonasa"]], NO_SEPARATORS)).toBe("/api/v1/search?facet=provider%3Acasmu%2Cregime%3Asin%20fonasa");
    expect(withQuery("/api/v1/x", [])).toBe("/api/v1/x");
    expect(queryString(new URLSearchParams("a=%C3%B1&b=1"))).toBe("a=%C3%B1&b=1");
  });

  it("is the only place in src/ that builds a query string", () => {
    const root = join(ROOT, "src");
    const offending = sources(root)
      .filter((file) => file !== join(root, "core/text/url.ts"))
      .flatMap((file) => handBuiltQueries(readFileSync(file, "utf8")).map((line) => `${relative(ROOT, file)}: ${line.trim()}`));
    expect(offending).toEqual([]);
  });

  it("finds a query built by hand (the check can fail)", () => {
    expect(handBuiltQueries("const a = `${path}?limit=${n}`;\nconst b = `${path}?${params.toString()}`;\nconst c = parts.join(\"&\");\nconst d = withQuery(path, [[\"limit\", \"1\"]]);")).toHaveLength(3);
  });
});
