/**
 * The pages' Content Security Policy (src/builder/page-policy.ts): the hash sources of
 * the inline code a page runs and styles with, what no hash can allow, the policy,
 * and the golden build's pages against the policy its `_headers` serves them with.
 * Chromium's own hashing is the check of the real pages (test/e2e/csp.test.ts).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { PageSources, hashSource, inlineCode, missingSources, pagePolicy, unhashable, unhashableAttribute } from "../../src/builder/page-policy.js";
import { BuildError } from "../../src/source/errors.js";
import { ROOT, sitePages } from "../files.js";

const GOLDEN = join(ROOT, "test/fixtures/golden/expected");
/** A page with each kind of script and a stylesheet. */
const PAGE = `<!doctype html><html><head><style>body{color:red}</style>
<script src="/assets/page.js" defer></script>
<script type="application/ld+json">{"@type":"Dataset"}</script>
</head><body><p title="a > b" class="x">1 &lt; 2</p>
<script type="application/json" id="config">{"a":1}</script>
<script>if (1 < 2) document.body.dataset.ok = "1";</script>
<pre><code>&lt;iframe style=&quot;border:0&quot; onload=&quot;x()&quot;&gt;</code></pre></body></html>`;

describe("hashSource", () => {
  it("is CSP's sha256 source of the text: the example of CSP Level 3 §8.3, and the empty text", () => {
    expect(hashSource("alert('Hello, world.');")).toBe("'sha256-qznLcsROx4GACP2dm0UCKCzCG+HiZ1guq6ZZDob/Tng='");
    expect(hashSource("")).toBe("'sha256-47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU='");
  });

  it("hashes the text as the browser parses it: CR LF and CR read as LF", () => {
    expect(hashSource("a\r\nb\rc")).toBe(hashSource("a\nb\nc"));
  });
});

describe("inlineCode", () => {
  it("hashes the scripts that run and the style blocks; not a script with src, nor the data blocks (JSON, JSON-LD)", () => {
    expect(inlineCode(PAGE, "x.html")).toEqual({ scripts: [hashSource('if (1 < 2) document.body.dataset.ok = "1";')], styles: [hashSource("body{color:red}")] });
  });

  it("takes a module, an import map and a JavaScript type as scripts that run", () => {
    for (const type of ["module", "importmap", "text/javascript", "application/javascript", "TEXT/JAVASCRIPT"]) {
      expect(inlineCode(`<script type="${type}">x</script>`, "x.html").scripts, type).toEqual([hashSource("x")]);
    }
  });

  it("stops at what no hash allows: an event handler, a style attribute, a javascript: URL, each named with the page", () => {
    const cases = [
      ['<button type="button" onclick="go()">go</button>', /x\.html: an event handler attribute \(onclick=\)/],
      ["<svg><rect ONLOAD='x()'/></svg>", /an event handler attribute \(onload=\)/],
      ['<div style="color:red">x</div>', /x\.html: a style attribute \(style=\)/],
      ['<a href="javascript:go()">go</a>', /a javascript: URL \(href=\)/],
    ] as const;
    for (const [markup, message] of cases) {
      expect(() => inlineCode(`<p>${markup}</p>`, "x.html"), markup).toThrow(BuildError);
      expect(() => inlineCode(`<p>${markup}</p>`, "x.html"), markup).toThrow(message);
    }
  });

  it("reads escaped text and attribute values as text: the embed code shown in a page, a title quoting a handler", () => {
    expect(() => inlineCode(PAGE, "x.html")).not.toThrow();
    expect(() => inlineCode('<a title="x onclick=y style=z" data-on="1" href="/javascript:">x</a>', "x.html")).not.toThrow();
  });
});

describe("unhashable", () => {
  // The tags' attribute texts made of names, values and separators that come near what is refused.
  const piece = fc.constantFrom("onclick", "ONLOAD", "on", "style", "STYLE", "xstyle", "data-on", "son", "href", "src", "action", "class", "=", '"', "'", " ", "/", ">", "javascript:", " javascript:x", "JavaScript:", "a", "b");
  const tag = fc.array(piece, { maxLength: 12 }).map((parts) => parts.join(""));

  it("skips only tags that hold nothing refused: over random attribute texts, it finds what parsing every attribute finds", () => {
    fc.assert(fc.property(tag, (text) => unhashable(text) === unhashableAttribute(text)), { numRuns: 3000 });
  });

  it("names what the full parse names, on tags that hold it", () => {
    expect(unhashable(' a=b=onclick="x"')).toBe("an event handler attribute (onclick=)");
    expect(unhashable('/style="color:red"')).toBe("a style attribute (style=)");
    expect(unhashable(' href=" JavaScript:go()"')).toBe("a javascript: URL (href=)");
    expect(unhashable(' class="son" data-on="1"')).toBeNull();
  });
});

describe("pagePolicy", () => {
  const code = { scripts: ["'sha256-a'"], styles: ["'sha256-b'", "'sha256-c'"] };

  it("allows the site's own files and the hashed inline code; no plugin, font, base or other site; no framing", () => {
    expect(pagePolicy(code)).toBe(
      "default-src 'self'; script-src 'self' 'sha256-a'; style-src 'self' 'sha256-b' 'sha256-c'; img-src 'self'; font-src 'none'; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
    );
  });

  it("lets any site frame the embed pages: the same without frame-ancestors", () => {
    expect(pagePolicy(code, true)).toBe(pagePolicy(code).replace("; frame-ancestors 'none'", ""));
  });

  it("is the same whatever the order of the pages: each hash once, sorted", () => {
    const [a, b] = [new PageSources(), new PageSources()];
    const one = "<style>p{}</style><script>one()</script>";
    const two = "<style>p{}</style><script>two()</script>";
    a.add(one, "1.html");
    a.add(two, "2.html");
    b.add(two, "2.html");
    b.add(one, "1.html");
    expect(a.code()).toEqual(b.code());
    expect(a.code().styles).toHaveLength(1);
    expect(a.code().scripts).toEqual([hashSource("one()"), hashSource("two()")].sort());
  });
});

describe("missingSources", () => {
  const sources = new PageSources();
  sources.add(PAGE, "x.html");
  const policy = pagePolicy(sources.code());

  it("finds nothing missing on a page whose inline code made the policy", () => {
    expect(missingSources(PAGE, "x.html", policy)).toEqual([]);
  });

  it("names an inline script or style the policy lacks", () => {
    const more = PAGE.replace("</body>", "<script>track()</script><style>p{}</style></body>");
    expect(missingSources(more, "x.html", policy)).toEqual([`script ${hashSource("track()")}`, `style ${hashSource("p{}")}`]);
  });

  it("finds nothing missing on any page of the golden build, under either policy its _headers serves", () => {
    const policies = [...readFileSync(join(GOLDEN, "_headers"), "utf8").matchAll(/^ {2}Content-Security-Policy: (default-src 'self'.*)$/gm)].map((m) => m[1] as string);
    expect(policies).toHaveLength(2);
    const pages = sitePages(GOLDEN);
    expect(pages.length).toBeGreaterThan(4);
    for (const { file } of pages) for (const served of policies) expect(missingSources(readFileSync(join(GOLDEN, file), "utf8"), file, served), file).toEqual([]);
    // The golden pages' inline code: the stylesheet (no page of the tiny fixture has a selection, so no early script).
    expect(policies[0]).toMatch(/script-src 'self'; style-src 'self' 'sha256-[^']+';/);
  });
});
