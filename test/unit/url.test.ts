import { describe, expect, it } from "vitest";
import { isHttpUrl } from "../../src/core/text/url.js";

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
