/**
 * The site copied for offline use, with the real parts: `wget --mirror` of the
 * served site (`wrangler pages dev` of the real build), then that copy served by
 * Debian's nginx with deploy/nginx.conf and no other network. Every link of every
 * page it copied answers 200 there, and none names the public host but the ones
 * whose job that is (canonical, hreflang, the citation link). Then `npm run
 * mirror` brings a copy of the build to the served site and checks it; served by
 * nginx, the links of the documents (catalog, metadata, feeds, DCAT, OpenAPI,
 * llms.txt, Data Packages) answer 200, but those that need the function.
 *
 * The copy `npm run mirror` starts from lacks what a plain copy of the output
 * would not fetch as itself from Pages, and one file changed: every page (Pages
 * answers `/x/index.html` and `/404.html` with a redirect), the files named with
 * commas, the manifest. A copy into an empty folder fetches the same way, 4,316
 * times: 35 to 80 s through `wrangler pages dev` on two busy cores, where this
 * takes seconds; test/integration/mirror.test.ts copies into an empty folder.
 */
import { cpSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import fg from "fast-glob";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { ROOT, runProcess, tempDir } from "../helpers.js";
import { ensureNginx, startNginx, type Nginx } from "../nginx.js";

const { urls, mainDir } = inject("system");
const PUBLIC = "https://open-series-uy.pages.dev";
const ready = ensureNginx() && runProcess("bash", [join(ROOT, "scripts/ensure-wget.sh")]).then((r) => r.code === 0);
const servers: Nginx[] = [];

afterAll(() => {
  for (const server of servers) server.stop();
});

/** The attributes of every tag of an HTML page, `&amp;` read as `&`. */
function tags(html: string): { tag: string; attrs: Record<string, string> }[] {
  return [...html.matchAll(/<([a-zA-Z][\w-]*)\b([^>]*)>/g)].map((m) => ({
    tag: (m[1] as string).toLowerCase(),
    attrs: Object.fromEntries([...(m[2] as string).matchAll(/([\w:-]+)="([^"]*)"/g)].map((a) => [a[1] as string, (a[2] as string).replaceAll("&amp;", "&")])),
  }));
}

/** Why a page may name the public host here: what the tag is for, or null when it may not. */
function publicRole(tag: string, attrs: Record<string, string>, name: string): string | null {
  if (tag === "link" && name === "href" && (attrs.rel === "canonical" || (attrs.rel === "alternate" && attrs.hreflang !== undefined))) return "canonical and hreflang";
  if (tag === "a" && name === "href" && attrs.rel === "cite-as") return "the address to cite";
  if (tag === "a" && name === "href" && attrs.href?.includes("utm_medium=attribution")) return "the credit (attribution link)";
  if (tag === "meta" && name === "content" && ["og:url", "og:image", "twitter:image"].includes(attrs.property ?? attrs.name ?? "")) return "Open Graph and Twitter (absolute by their specs)";
  return null;
}

/** The statuses of `links` on the server, each asked once. */
async function statuses(links: Iterable<string>): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  for (const link of new Set(links)) out.set(link, (await fetch(link, { redirect: "manual" })).status);
  return out;
}

describe("a wget --mirror of the site, served by nginx", () => {
  let copy: string;
  let nginx: Nginx;

  beforeAll(async () => {
    if (!(await ready)) return;
    copy = join(await tempDir(), "wget");
    await mkdir(copy);
    // wget exits 8 when a link it follows is answered with an error: 0 means every one was a 200.
    const wget = await runProcess("wget", ["--mirror", "--no-host-directories", "--no-verbose", "--directory-prefix", copy, `${urls.main}/`]);
    expect(wget.code, wget.stderr.slice(-2000)).toBe(0);
    nginx = await startNginx(copy);
    servers.push(nginx);
  });

  it("answers every link of every page it copied (314 on 14 pages), and no page names the public host but for canonical, hreflang, sharing and citation", async (context) => {
    if (!(await ready)) context.skip();
    const pages = fg.sync("**/*.html", { cwd: copy }).sort();
    expect(pages.length).toBeGreaterThanOrEqual(14);
    const internal: string[] = [];
    const roles = new Map<string, number>();
    const offending: string[] = [];
    for (const page of pages) {
      const address = `${nginx.url}/${page.replace(/index\.html$/, "")}`;
      for (const { tag, attrs } of tags(readFileSync(join(copy, page), "utf8"))) {
        for (const [name, value] of Object.entries(attrs)) {
          if (value.includes(PUBLIC) || value.includes(urls.main)) {
            const role = publicRole(tag, attrs, name);
            if (role === null) offending.push(`${page}: <${tag} ${name}="${value}">`);
            else roles.set(role, (roles.get(role) ?? 0) + 1);
          } else if ((name === "href" || name === "src") && !value.startsWith("#")) {
            const url = new URL(value, address);
            if (url.origin === nginx.url) internal.push(url.href);
          }
        }
      }
    }
    expect(offending).toEqual([]);
    // The credit links are on the embed pages, which no page links (their address is in the embed code, a text): not in a wget copy.
    expect([...roles.keys()].sort()).toEqual(["Open Graph and Twitter (absolute by their specs)", "canonical and hreflang", "the address to cite"]);
    const answered = await statuses(internal);
    expect([...answered].filter(([, status]) => status !== 200)).toEqual([]);
    // Every page's links (92 addresses), the downloads of every indicator among them.
    expect(answered.size).toBeGreaterThan(70);
    expect(internal.length).toBeGreaterThan(300);
  });
});

describe("npm run mirror of the served site", () => {
  let dir: string;
  const mirror = (...args: string[]) => runProcess(process.execPath, ["--import", "tsx", "scripts/mirror.ts", ...args]);

  beforeAll(async () => {
    dir = join(await tempDir(), "mirror");
    cpSync(mainDir, dir, { recursive: true });
    const missing = fg.sync(["**/*.html", "api/v1/*/downloads/*", "manifest.json", "_headers", "_routes.json"], { cwd: dir });
    for (const path of missing) rmSync(join(dir, path));
    writeFileSync(join(dir, "api/v1/bpc/data.csv"), "date,series,value,source,note\n");
    writeFileSync(join(dir, "api/v1/gone.json"), "{}");
    const synced = await mirror(urls.main, dir);
    expect(synced.code, synced.stderr).toBe(0);
    // The pages, the downloads, the changed file; the stale one removed.
    const fetched = missing.length - 3 + 1;
    expect(synced.stdout).toMatch(new RegExp(`fetched ${fetched} of [\\d,]+ files \\(missing or changed\\), removed 1\n`));
  });

  it("brings a copy to the served site; --check passes, then names a file changed behind its back", async () => {
    const checked = await mirror("--check", dir);
    expect([checked.code, checked.stdout]).toEqual([0, expect.stringMatching(/: all [\d,]+ files as listed/) as unknown]);
    const file = join(dir, "api/v1/bpc/data.csv");
    const bytes = readFileSync(file);
    writeFileSync(file, Buffer.concat([bytes, Buffer.from("2099-01-01,bpc,1,,\n")]));
    const tampered = await mirror("--check", dir);
    expect(tampered.code).toBe(1);
    expect(tampered.stderr).toContain("changed (1): api/v1/bpc/data.csv");
    writeFileSync(file, bytes);
    expect((await mirror("--check", dir)).code).toBe(0);
  });

  it("served by nginx, answers the links of the documents, but those that need the function", async (context) => {
    if (!(await ready)) context.skip();
    const nginx = await startNginx(dir);
    servers.push(nginx);
    const read = (path: string) => readFileSync(join(dir, path), "utf8");
    const links: [document: string, link: string][] = [];
    const add = (document: string, values: Iterable<unknown>) => {
      for (const value of values) for (const link of [value].flat()) if (typeof link === "string") links.push([document, link]);
    };
    const catalog = JSON.parse(read("api/v1/index.json")) as Record<string, unknown> & { indicators: { id: string; links: Record<string, unknown> }[] };
    add("api/v1/index.json", [catalog.openapi, catalog.dcat, catalog.feed, catalog.status, ...catalog.indicators.flatMap((i) => Object.values(i.links))]);
    for (const { id } of catalog.indicators) {
      add(`api/v1/${id}/metadata.json`, Object.values((JSON.parse(read(`api/v1/${id}/metadata.json`)) as { links: Record<string, unknown> }).links));
      const pkg = JSON.parse(read(`api/v1/${id}/datapackage.json`)) as { resources: { path: string }[] };
      add(`api/v1/${id}/datapackage.json`, pkg.resources.map((r) => r.path));
    }
    for (const feed of fg.sync(["feed.atom", "api/v1/*/feed.atom"], { cwd: dir })) add(feed, [...read(feed).matchAll(/ href="([^"]+)"/g)].map((m) => (m[1] as string).replaceAll("&amp;", "&")));
    // DCAT: the references that are paths (what identifies is absolute: the nodes' @id, the publisher).
    add("api/v1/catalog.jsonld", [...read("api/v1/catalog.jsonld").matchAll(/\{"@id":"(\/[^"]*)"\}/g)].map((m) => m[1]));
    add("api/v1/openapi.json", [(JSON.parse(read("api/v1/openapi.json")) as { servers: { url: string }[] }).servers[0]?.url]);
    add("llms.txt", [...read("llms.txt").matchAll(/\]\((\/[^)]*)\)/g)].map((m) => m[1]));
    expect(links.filter(([, link]) => link.startsWith("http"))).toEqual([]);
    // The MCP server and the API's root are the function's, not files: a mirror without it answers 404.
    const needsFunction = (link: string) => link === "/mcp" || link === "/api/v1" || link.includes("/changes?");
    const absolute = links.map(([document, link]) => [document, new URL(link, `${nginx.url}/${document}`).href] as const);
    const answered = await statuses(absolute.filter(([, url]) => !needsFunction(new URL(url).pathname + new URL(url).search)).map(([, url]) => url));
    expect([...answered].filter(([, status]) => status !== 200)).toEqual([]);
    expect(answered.size).toBeGreaterThan(60);
    expect(links.filter(([, link]) => needsFunction(link)).map(([document, link]) => `${document}: ${link}`)).toEqual(["api/v1/catalog.jsonld: /api/v1", "llms.txt: /mcp"]);
  });
});
