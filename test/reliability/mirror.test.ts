/**
 * Offline mirrors: the output folder served by plain static servers. Python's
 * http.server serves the files as they are; Debian's nginx with deploy/nginx.conf
 * also maps the API's query parameters onto the prebuilt pages.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, inject, it } from "vitest";
import { freePort } from "../../scripts/lib/pages-dev.js";
import { INDICATOR_IDS, firstSeries } from "../indicators.js";
import { ensureNginx, startNginx, waitFor, type Nginx } from "../nginx.js";

const IDS = INDICATOR_IDS;
/** A sub-series of each indicator, whose default answer a mirror serves from a static file. */
const SERIES: Record<string, string> = Object.fromEntries(IDS.map((id) => [id, firstSeries(id)]));
const HIP_SERIES = "casmu.consult-general-medicine.fonasa";
/** The default build of the real data (test/e2e/global-setup.ts). */
const out = inject("system").mainDir;
const children: ChildProcess[] = [];
const servers: Nginx[] = [];

afterAll(() => {
  for (const child of children) child.kill("SIGTERM");
  for (const server of servers) server.stop();
});

const file = (path: string) => readFileSync(join(out, path));
/** The second page of limit 10 when a sub-series has more than 10 points, else the first: a prebuilt page every indicator has. */
const offset = (id: string) => (existsSync(join(out, `api/v1/${id}/limit-10/offset-10.json`)) ? 10 : 0);
const secondPage = (id: string) => `limit-10/offset-${offset(id)}.json`;
const get = async (url: string) => {
  const response = await fetch(url);
  return { status: response.status, headers: response.headers, bytes: Buffer.from(await response.arrayBuffer()) };
};

describe("the output folder on a plain static server (python3 -m http.server)", () => {
  it("serves every indicator's pages, the CSV, the catalog, the OpenAPI file and the site", async () => {
    const port = await freePort();
    const child = spawn("python3", ["-m", "http.server", String(port), "--bind", "127.0.0.1", "--directory", out], { stdio: "ignore" });
    children.push(child);
    const base = `http://127.0.0.1:${port}`;
    await waitFor(base);
    // The wages page's group files, which its script fetches from the folder the page names (data-groups): one per
    // value of the facets not compared (the pay: monthly, hourly; src/site/client/series-view.ts `groupKey`).
    const folder = /data-groups="([^"]+)"/.exec(file("series/domestic-worker-wages/index.html").toString("utf8"))?.[1] ?? "";
    expect(folder).toBe("/_data/domestic-worker-wages/view/");
    const groups = readdirSync(join(out, folder)).map((name) => `${folder}${name}`);
    expect(groups.sort()).toEqual([`${folder}0.json`, `${folder}1.json`]);
    const paths = ["/api/v1/index.json", "/api/v1/openapi.json", "/index.html", "/assets/series-page.js", ...groups];
    for (const id of IDS) paths.push(`/api/v1/${id}/index.json`, `/api/v1/${id}/${secondPage(id)}`, `/api/v1/${id}/data.csv`, `/series/${id}/index.html`);
    for (const path of paths) {
      const r = await get(base + path);
      expect(r.status, path).toBe(200);
      expect(r.bytes.equals(file(path)), path).toBe(true);
    }
    // Directory addresses work as on Pages: /series/<id>/ is the page.
    expect((await get(`${base}/series/${IDS[0] as string}/`)).bytes.equals(file(`series/${IDS[0] as string}/index.html`))).toBe(true);
  });
});

describe("the example nginx configuration (deploy/nginx.conf) with Debian's nginx", () => {
  it.skipIf(!ensureNginx())("maps the API's query parameters onto the prebuilt files", async () => {
    const nginx = await startNginx(out);
    servers.push(nginx);
    const base = nginx.url;

    for (const id of IDS) {
      const cases: [string, string][] = [
        [`/api/v1/${id}`, `api/v1/${id}/index.json`],
        [`/api/v1/${id}?limit=10&offset=${offset(id)}`, `api/v1/${id}/${secondPage(id)}`],
        [`/api/v1/${id}?offset=${offset(id)}&limit=10`, `api/v1/${id}/${secondPage(id)}`],
        [`/api/v1/${id}?limit=50`, `api/v1/${id}/limit-50/offset-0.json`],
        [`/api/v1/${id}/data.csv`, `api/v1/${id}/data.csv`],
        [`/api/v1/${id}?series=${SERIES[id]}`, `api/v1/${id}/series/${SERIES[id]}.json`],
        [`/api/v1/${id}?series=${SERIES[id]}&format=json`, `api/v1/${id}/series/${SERIES[id]}.json`],
        [`/api/v1/${id}?series=${SERIES[id]}&format=csv`, `api/v1/${id}/series/${SERIES[id]}.csv`],
        [`/api/v1/${id}?format=csv&series=${SERIES[id]}`, `api/v1/${id}/series/${SERIES[id]}.csv`],
      ];
      for (const [path, target] of cases) {
        const r = await get(base + path);
        expect(r.status, path).toBe(200);
        expect(r.bytes.equals(file(target)), path).toBe(true);
        expect(r.headers.get("access-control-allow-origin")).toBe("*");
        expect(r.headers.get("cache-control")).toBe("public, max-age=900");
      }
      const json = await get(`${base}/api/v1/${id}`);
      expect(json.headers.get("content-type")).toMatch(/^application\/json/);
    }
    const csv = await get(`${base}/api/v1/health-insurance-prices?series=${HIP_SERIES}&format=csv`);
    expect(csv.headers.get("content-type")).toMatch(/^text\/csv/);
    for (const path of [
      "/api/v1/domestic-worker-wages?from=2020",
      "/api/v1/domestic-worker-wages?limit=7",
      "/api/v1/nope/index.json",
      "/api/v1/health-insurance-prices?series=casmu.*",
      "/api/v1/health-insurance-prices?series=no-such-series",
    ]) {
      const r = await get(base + path);
      expect(r.status, path).toBe(404);
      expect(r.headers.get("cache-control")).toBe("no-store");
      const body = JSON.parse(r.bytes.toString("utf8")) as { error: { code: string; detail: string } };
      expect(body.error.code).toBe("not_found");
    }
    expect((await get(`${base}/series/health-insurance-prices/`)).status).toBe(200);
    expect((await get(`${base}/_headers`)).status).toBe(404);
  });
});
