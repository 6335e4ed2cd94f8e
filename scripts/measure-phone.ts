/**
 * `npx tsx scripts/measure-phone.ts [--root DIR] [--out FILE]` (`npm run measure:phone`):
 * how the site's pages load on a phone over DevTools' "Slow 3G".
 *
 * DIR (default: this repository) is a checkout with `dist/` built and `functions/`.
 * The script runs `wrangler pages dev dist` there, puts a small HTTP proxy in front
 * of it that compresses like Cloudflare's edge does by default, and loads every page
 * of the site in both languages in Debian's Chromium (playwright-core), one fresh
 * browser context per load (empty cache), phone viewport, network throttled over CDP.
 *
 * Per load: bytes on the wire (sum of CDP `Network.loadingFinished.encodedDataLength`),
 * requests, the 3 biggest responses, First Contentful Paint, load event, network idle
 * (no request in flight for 2.5 s; each page capped at 60 s). On pages with the
 * selection form: when the selects are usable. On a shared link to the health insurance
 * page with a non-default provider: when the card shows that provider, and for how long
 * a card of another provider was visible before. Prints a table, writes every raw number
 * as JSON to FILE (default test-artifacts/phone/measure.json). A metric that cannot be
 * taken prints "—" and its reason is in the JSON (`why`).
 */
import { execFileSync } from "node:child_process";
import { accessSync, constants, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import http from "node:http";
import { cpus, loadavg } from "node:os";
import { dirname, join, resolve } from "node:path";
import { pipeline } from "node:stream";
import { parseArgs } from "node:util";
import zlib from "node:zlib";
import { chromium, type Browser } from "playwright-core";
import { freePort, startPagesDev } from "./lib/pages-dev.js";

/** This repository (the script's own checkout; DIR may be another one). */
const REPO = resolve(import.meta.dirname, "..");

const USAGE = "usage: npx tsx scripts/measure-phone.ts [--root DIR] [--out FILE] [--encoding br|gzip] [--only TEXT]";

/**
 * DevTools' "Slow 3G" preset, as Chrome DevTools defines it (devtools-frontend,
 * front_end/core/sdk/NetworkManager.ts, `Slow3GConditions`): ~500 kbit/s down and up
 * times DevTools' 0.8 adjustment factor = 50,000 bytes/s, and 400 ms RTT times the
 * 5x latency factor = 2,000 ms. (DevTools before 2020 used 500 * 1024; now 1000.)
 */
const SLOW_3G = {
  offline: false,
  latency: 400 * 5,
  downloadThroughput: ((500 * 1000) / 8) * 0.8,
  uploadThroughput: ((500 * 1000) / 8) * 0.8,
};

/** A phone: iPhone 12-14 sized viewport, 3x screen, touch, Uruguayan Spanish. */
const PHONE = {
  viewport: { width: 390, height: 844 },
  deviceScaleFactor: 3,
  isMobile: true,
  hasTouch: true,
  locale: "es-UY",
} as const;

const CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"];

/** Network idle: no request in flight for this long. */
const QUIET_MS = 2_500;
/** Each page is left after this long from navigation start, idle or not. */
const CAP_MS = 60_000;

/**
 * The content types Cloudflare compresses by default between its edge and visitors:
 * "Content compression", https://developers.cloudflare.com/speed/optimization/content/compression/
 * (cloudflare-docs src/content/docs/speed/optimization/content/compression.mdx). Not in
 * it, so sent as they are: text/csv, application/octet-stream (the pages' /_data/*.bin),
 * application/atom+xml, the xlsx and parquet types. Miniflare's entry worker carries
 * the same list (`compressedByCloudflareFL`).
 */
const CLOUDFLARE_COMPRESSED_TYPES: ReadonlySet<string> = new Set([
  "text/html",
  "text/richtext",
  "text/plain",
  "text/css",
  "text/x-script",
  "text/x-component",
  "text/x-java-source",
  "text/x-markdown",
  "application/javascript",
  "application/x-javascript",
  "text/javascript",
  "text/js",
  "image/x-icon",
  "image/vnd.microsoft.icon",
  "application/x-perl",
  "application/x-httpd-cgi",
  "text/xml",
  "application/xml",
  "application/rss+xml",
  "application/vnd.api+json",
  "application/x-protobuf",
  "application/json",
  "multipart/bag",
  "multipart/mixed",
  "application/xhtml+xml",
  "font/ttf",
  "font/otf",
  "font/x-woff",
  "image/svg+xml",
  "application/vnd.ms-fontobject",
  "application/ttf",
  "application/x-ttf",
  "application/otf",
  "application/x-otf",
  "application/truetype",
  "application/opentype",
  "application/x-opentype",
  "application/font-woff",
  "application/eot",
  "application/font",
  "application/font-sfnt",
  "application/wasm",
  "application/javascript-binast",
  "application/manifest+json",
  "application/ld+json",
  "application/graphql+json",
  "application/geo+json",
]);

/**
 * Same page: statuses Cloudflare compresses (200, and of the errors only 403 and 404),
 * and the smallest bodies it compresses (48 bytes for gzip, 50 for Brotli).
 */
const COMPRESSED_STATUSES: ReadonlySet<number> = new Set([200, 403, 404]);
const MIN_BYTES = { gzip: 48, br: 50 } as const;

/**
 * Cloudflare does not document its on-the-fly levels. gzip 6 is zlib's default;
 * Brotli quality 5 is a middle, on-the-fly setting (11 is for precompression).
 */
const GZIP_LEVEL = 6;
const BROTLI_QUALITY = 5;

type Encoding = "br" | "gzip";

// ---------------------------------------------------------------------------------
// Processes and ports

interface Server {
  readonly url: string;
  output(): string;
  stop(): Promise<void>;
}

/** The version of the wrangler `startPagesDev` runs (this checkout's). */
function wranglerVersion(): string {
  return (JSON.parse(readFileSync(join(REPO, "node_modules/wrangler/package.json"), "utf8")) as { version: string }).version;
}

/** The encoding Cloudflare would answer with, given the request's Accept-Encoding (q=0 refuses). */
function acceptedEncoding(header: string | undefined, preferred: Encoding): Encoding | undefined {
  const accepted = new Map<string, number>();
  for (const element of (header ?? "").split(",")) {
    const [coding, ...params] = element.trim().toLowerCase().split(";");
    if (coding === undefined || coding === "") continue;
    const q = params.map((p) => /^\s*q=([0-9.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
    accepted.set(coding, q === undefined ? 1 : Number(q));
  }
  const ok = (coding: string) => (accepted.get(coding) ?? accepted.get("*") ?? 0) > 0;
  if (preferred === "br" && ok("br")) return "br";
  if (ok("gzip")) return "gzip";
  return undefined;
}

/**
 * A proxy in front of wrangler that compresses as Cloudflare's edge does by default.
 * It asks wrangler for the identity encoding: `wrangler pages dev` compresses by itself
 * (miniflare's entry worker, same type list, gzip for Chromium's "gzip, deflate, br,
 * zstd"), and the proxy is to decide instead. Responses wrangler still encodes, other
 * types, other statuses, `no-transform` and tiny bodies pass through unchanged.
 */
async function startProxy(upstream: string, preferred: Encoding): Promise<Server> {
  const target = new URL(upstream);
  const server = http.createServer((req, res) => {
    const headers = { ...req.headers, host: target.host, "accept-encoding": "identity" };
    const forward = http.request({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers }, (up) => {
      const status = up.statusCode ?? 502;
      const out: http.OutgoingHttpHeaders = { ...up.headers };
      for (const hop of ["connection", "keep-alive", "transfer-encoding"]) delete out[hop];
      const type = (up.headers["content-type"] ?? "").split(";")[0]?.trim().toLowerCase() ?? "";
      const length = up.headers["content-length"] === undefined ? undefined : Number(up.headers["content-length"]);
      const encoding = acceptedEncoding(req.headers["accept-encoding"], preferred);
      const compress =
        encoding !== undefined &&
        req.method !== "HEAD" &&
        COMPRESSED_STATUSES.has(status) &&
        CLOUDFLARE_COMPRESSED_TYPES.has(type) &&
        up.headers["content-encoding"] === undefined &&
        !/\bno-transform\b/i.test(up.headers["cache-control"] ?? "") &&
        (length === undefined || length >= MIN_BYTES[encoding]);
      if (!compress) {
        res.writeHead(status, out);
        pipeline(up, res, () => undefined);
        return;
      }
      delete out["content-length"];
      out["content-encoding"] = encoding;
      out.vary = up.headers.vary === undefined ? "Accept-Encoding" : `${up.headers.vary}, Accept-Encoding`;
      // Cloudflare weakens a strong ETag when it changes the encoding.
      const etag = up.headers.etag;
      if (etag !== undefined && !etag.startsWith("W/")) out.etag = `W/${etag}`;
      res.writeHead(status, out);
      const compressor =
        encoding === "br"
          ? zlib.createBrotliCompress({
              params: {
                [zlib.constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY,
                ...(length === undefined ? {} : { [zlib.constants.BROTLI_PARAM_SIZE_HINT]: length }),
              },
            })
          : zlib.createGzip({ level: GZIP_LEVEL });
      pipeline(up, compressor, res, () => undefined);
    });
    forward.on("error", (error) => {
      if (!res.headersSent) res.writeHead(502, { "content-type": "text/plain" });
      res.end(`proxy: ${error.message}`);
    });
    pipeline(req, forward, () => undefined);
  });
  const port = await freePort();
  await new Promise<void>((done, fail) => {
    server.once("error", fail);
    server.listen(port, "127.0.0.1", () => done());
  });
  return {
    url: `http://127.0.0.1:${port}`,
    output: () => "",
    stop: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}

// ---------------------------------------------------------------------------------
// The pages

interface PagePlan {
  /** Short name in the table. */
  label: string;
  /** Path (and fragment) loaded. */
  path: string;
  /** The HTML has `form#selection`. */
  form: boolean;
}

/** Indicator ids of DIR: the built index (or catalog), else the folders of data/. */
function indicatorIds(root: string): { ids: string[]; from: string } {
  for (const file of ["dist/api/v1/index.json", "dist/api/v1/catalog.json"]) {
    try {
      const json = JSON.parse(readFileSync(join(root, file), "utf8")) as { indicators?: { id?: unknown }[] };
      const ids = (json.indicators ?? []).map((i) => i.id).filter((id): id is string => typeof id === "string");
      if (ids.length > 0) return { ids, from: file };
    } catch {
      // next source
    }
  }
  const data = join(root, "data");
  const ids = existsSync(data) ? readdirSync(data).filter((name) => statSync(join(data, name)).isDirectory()) : [];
  return { ids: ids.sort(), from: "data/" };
}

function pageHtml(root: string, path: string): string | undefined {
  try {
    return readFileSync(join(root, "dist", path.split("#")[0] ?? path, "index.html"), "utf8");
  } catch {
    return undefined;
  }
}

const hasSelectionForm = (html: string | undefined) => html !== undefined && /<form\b[^>]*\bid="selection"/.test(html);

function decodeEntities(text: string): string {
  return text
    .replace(/&#(\d+);/g, (_, code: string) => String.fromCodePoint(Number(code)))
    .replace(/&#x([0-9a-f]+);/gi, (_, code: string) => String.fromCodePoint(parseInt(code, 16)))
    .replace(/&quot;/g, '"')
    .replace(/&#39;|&apos;/g, "'")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");
}

interface Option {
  value: string;
  label: string;
  selected: boolean;
}

/** The options of `<select name="…">` in a page's HTML. */
function selectOptions(html: string, name: string): Option[] {
  const select = new RegExp(`<select\\b[^>]*\\bname="${name}"[^>]*>([\\s\\S]*?)</select>`).exec(html)?.[1];
  if (select === undefined) return [];
  return [...select.matchAll(/<option\b([^>]*)>([\s\S]*?)<\/option>/g)].map((m) => {
    const attrs = m[1] ?? "";
    return {
      value: decodeEntities(/\bvalue="([^"]*)"/.exec(attrs)?.[1] ?? decodeEntities((m[2] ?? "").trim())),
      label: decodeEntities((m[2] ?? "").replace(/<[^>]*>/g, "").trim()),
      selected: /\bselected\b/.test(attrs),
    };
  });
}

// ---------------------------------------------------------------------------------
// One page load

/** Installed before any page script: the page's own clock for the form and the card. */
function observerScript(opts: { selects: boolean; card: boolean }): string {
  return `(function (opts) {
  if (window.__phone) return;
  var state = { selectsUsable: null, selectsUsableVia: null, card: [] };
  window.__phone = state;
  var last;
  function checkCard(via) {
    var el = document.querySelector("#view-card article.card");
    var id = el ? el.getAttribute("data-series") : null;
    if (id !== last) { last = id; state.card.push({ t: performance.now(), series: id, via: via }); }
  }
  function checkForm(via) {
    if (state.selectsUsable !== null) return true;
    var form = document.querySelector("form#selection");
    if (!form || form.hidden || form.hasAttribute("data-pending")) return false;
    var box = form.getBoundingClientRect();
    if (!(box.width > 0 && box.height > 0)) return false;
    state.selectsUsable = performance.now();
    state.selectsUsableVia = via;
    return true;
  }
  new MutationObserver(function () {
    if (opts.card) checkCard("mutation");
    if (opts.selects) checkForm("mutation");
  }).observe(document, { subtree: true, childList: true, attributes: true });
  // A size can change without a mutation (a stylesheet arriving): checked every frame until usable.
  if (opts.selects) requestAnimationFrame(function frame() { if (!checkForm("frame")) requestAnimationFrame(frame); });
})(${JSON.stringify(opts)});`;
}

interface Received {
  /** Path and query (the origin's port changes from run to run). */
  url: string;
  type: string;
  mimeType: string;
  status: number | null;
  encoding: string | null;
  bytes: number;
  failed: string | null;
}

interface CardEntry {
  t: number;
  series: string | null;
  via: string;
}

interface Load {
  label: string;
  path: string;
  documentStatus: number | null;
  bytes: number | null;
  requests: number | null;
  fcpMs: number | null;
  domContentLoadedMs: number | null;
  loadMs: number | null;
  networkIdleMs: number | null;
  /** Page clock when the page was left. */
  leftAtMs: number | null;
  selectsUsableMs: number | null;
  selectsUsableVia: string | null;
  biggest: Received[];
  responses: Received[];
  cardTimeline: CardEntry[] | null;
  /** Why a metric is null. */
  why: Record<string, string>;
}

interface InPage {
  fcp: number | null;
  dcl: number | null;
  load: number | null;
  status: number | null;
  now: number;
  phone: { selectsUsable: number | null; selectsUsableVia: string | null; card: CardEntry[] } | null;
  form: { present: boolean; hidden: boolean; pending: boolean; width: number; height: number } | null;
}

/** Read in the page at the end (a string, so no bundler helper ends up in the page). */
const IN_PAGE = `(() => {
  const nav = performance.getEntriesByType("navigation")[0];
  const fcp = performance.getEntriesByName("first-contentful-paint")[0];
  const form = document.querySelector("form#selection");
  const box = form ? form.getBoundingClientRect() : null;
  return {
    fcp: fcp ? fcp.startTime : null,
    dcl: nav && nav.domContentLoadedEventStart > 0 ? nav.domContentLoadedEventStart : null,
    load: nav && nav.loadEventStart > 0 ? nav.loadEventStart : null,
    status: nav && typeof nav.responseStatus === "number" ? nav.responseStatus : null,
    now: performance.now(),
    phone: window.__phone ?? null,
    form: form ? { present: true, hidden: form.hidden, pending: form.hasAttribute("data-pending"), width: box.width, height: box.height } : null,
  };
})()`;

const round = (n: number | null) => (n === null ? null : Math.round(n));

async function measureLoad(browser: Browser, base: string, plan: PagePlan, card: boolean): Promise<Load> {
  const why: Record<string, string> = {};
  const context = await browser.newContext(PHONE);
  try {
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    interface Pending {
      url: string;
      type: string;
      mimeType: string;
      status: number | null;
      encoding: string | null;
      sentAt: number;
    }
    const inflight = new Map<string, Pending>();
    const done: Received[] = [];
    let documentSentAt: number | undefined;
    let lastFinishedAt: number | undefined;
    let lastActivity = Date.now();
    const finish = (id: string, bytes: number, timestamp: number, failed: string | null) => {
      const request = inflight.get(id);
      if (request === undefined) return;
      inflight.delete(id);
      lastActivity = Date.now();
      lastFinishedAt = timestamp;
      const { url, type, mimeType, status, encoding } = request;
      done.push({ url, type, mimeType, status, encoding, bytes, failed });
    };
    cdp.on("Network.requestWillBeSent", (e) => {
      if (!/^https?:/.test(e.request.url)) return;
      if (e.redirectResponse !== undefined) finish(e.requestId, e.redirectResponse.encodedDataLength, e.timestamp, null);
      if (e.type === "Document" && documentSentAt === undefined) documentSentAt = e.timestamp;
      const { pathname, search } = new URL(e.request.url);
      inflight.set(e.requestId, { url: pathname + search, type: e.type ?? "Other", mimeType: "", status: null, encoding: null, sentAt: e.timestamp });
      lastActivity = Date.now();
    });
    cdp.on("Network.responseReceived", (e) => {
      const request = inflight.get(e.requestId);
      if (request === undefined) return;
      request.mimeType = e.response.mimeType;
      request.status = e.response.status;
      const encoding = Object.entries(e.response.headers).find(([name]) => name.toLowerCase() === "content-encoding")?.[1];
      request.encoding = encoding ?? null;
      lastActivity = Date.now();
    });
    cdp.on("Network.dataReceived", () => (lastActivity = Date.now()));
    cdp.on("Network.loadingFinished", (e) => finish(e.requestId, e.encodedDataLength, e.timestamp, null));
    cdp.on("Network.loadingFailed", (e) => finish(e.requestId, 0, e.timestamp, e.errorText));
    await cdp.send("Network.enable");
    await cdp.send("Network.emulateNetworkConditions", SLOW_3G);
    if (plan.form || card) await page.addInitScript({ content: observerScript({ selects: plan.form, card }) });

    const started = Date.now();
    let navigationError: string | undefined;
    const navigation = page
      .goto(base + plan.path, { waitUntil: "commit", timeout: CAP_MS })
      .then(() => undefined)
      .catch((error: unknown) => {
        navigationError = error instanceof Error ? error.message.split("\n")[0] : String(error);
      });
    // Network idle: nothing in flight for QUIET_MS, checked every 100 ms; or the cap.
    let idle = false;
    for (;;) {
      await new Promise((r) => setTimeout(r, 100));
      const now = Date.now();
      if (documentSentAt !== undefined && inflight.size === 0 && now - lastActivity >= QUIET_MS) {
        idle = true;
        break;
      }
      if (now - started >= CAP_MS || navigationError !== undefined) break;
    }
    await navigation;
    const still = [...inflight.values()];
    for (const request of still) done.push({ ...request, bytes: 0, failed: "still loading when the page was left" });

    let inPage: InPage | undefined;
    try {
      inPage = await page.evaluate<InPage>(IN_PAGE);
    } catch (error) {
      why.page = `could not read the page's timings: ${error instanceof Error ? error.message.split("\n")[0] : String(error)}`;
    }

    const answered = done.filter((r) => r.failed === null || r.bytes > 0);
    const bytes = done.reduce((sum, r) => sum + r.bytes, 0);
    const load: Load = {
      label: plan.label,
      path: plan.path,
      documentStatus: inPage?.status ?? done.find((r) => r.type === "Document")?.status ?? null,
      bytes: documentSentAt === undefined ? null : bytes,
      requests: documentSentAt === undefined ? null : done.length,
      fcpMs: round(inPage?.fcp ?? null),
      domContentLoadedMs: round(inPage?.dcl ?? null),
      loadMs: round(inPage?.load ?? null),
      networkIdleMs: idle && documentSentAt !== undefined && lastFinishedAt !== undefined ? round((lastFinishedAt - documentSentAt) * 1000) : null,
      leftAtMs: round(inPage?.now ?? null),
      selectsUsableMs: round(inPage?.phone?.selectsUsable ?? null),
      selectsUsableVia: inPage?.phone?.selectsUsableVia ?? null,
      biggest: [...answered].sort((a, b) => b.bytes - a.bytes).slice(0, 3),
      responses: done,
      cardTimeline: card ? (inPage?.phone?.card ?? null) : null,
      why,
    };
    if (navigationError !== undefined) why.navigation = navigationError;
    if (documentSentAt === undefined) why.bytes = why.requests = "the document request was never sent";
    if (still.length > 0)
      why.bytes = `${still.length} request(s) still in flight at ${CAP_MS / 1000} s, counted as 0 bytes: ${still.map((r) => r.url).join(", ")}`;
    if (inPage !== undefined) {
      if (load.fcpMs === null) why.fcp = "no first-contentful-paint entry: nothing painted by the time the page was left";
      if (load.loadMs === null) why.load = "the load event had not fired when the page was left";
      if (load.domContentLoadedMs === null) why.domContentLoaded = "DOMContentLoaded had not fired when the page was left";
    } else {
      why.fcp = why.load = why.domContentLoaded = why.page ?? "page not readable";
    }
    if (!idle) why.networkIdle = still.length > 0 ? `not idle within ${CAP_MS / 1000} s (${still.length} request(s) in flight)` : `not idle within ${CAP_MS / 1000} s`;
    if (!plan.form) why.selectsUsable = "not applicable: no form#selection on this page";
    else if (load.selectsUsableMs === null) {
      const form = inPage?.form;
      why.selectsUsable =
        inPage === undefined
          ? "page not readable"
          : form === null || form === undefined
            ? "form#selection not in the page when it was left"
            : `form#selection not usable when the page was left (hidden=${form.hidden}, data-pending=${form.pending}, size ${form.width}x${form.height})`;
    }
    if (load.documentStatus !== null && load.documentStatus !== 200) why.documentStatus = `the page answered ${load.documentStatus}`;
    return load;
  } finally {
    await context.close();
  }
}

// ---------------------------------------------------------------------------------
// The shared link

interface SharedLink {
  path: string | null;
  provider: { value: string; label: string } | null;
  defaultProvider: { value: string; label: string } | null;
  /** How a card's sub-series is told to be the chosen provider's. */
  match: { how: string; ids: number; prefixes: string[] };
  /** From navigation start until the card shows the chosen provider (not before FCP). */
  correctMs: number | null;
  /** The same in DOM time (may be before the first paint). */
  correctDomMs: number | null;
  /** Time another provider's card was visible (from FCP) before the correct one. */
  wrongMs: number | null;
  wrongSeries: string[];
  endedCorrect: boolean | null;
  finalSeries: string | null;
  load: Load | null;
  why: Record<string, string>;
}

/** The sub-series ids of `provider`, from the indicator's metadata (facet indexes). */
async function providerSeries(upstream: string, indicator: string, provider: string): Promise<Set<string> | string> {
  try {
    const response = await fetch(`${upstream}/api/v1/${indicator}/metadata.json`);
    if (!response.ok) return `metadata.json answered ${response.status}`;
    const metadata = (await response.json()) as { facets?: { name: string; values: string[] }[]; series?: { id: string; facets?: number[] }[] };
    const facet = metadata.facets?.findIndex((f) => f.name === "provider") ?? -1;
    const value = facet < 0 ? -1 : (metadata.facets?.[facet]?.values.indexOf(provider) ?? -1);
    if (facet < 0 || value < 0) return `metadata.json has no provider facet value "${provider}"`;
    const ids = (metadata.series ?? []).filter((s) => s.facets?.[facet] === value).map((s) => s.id);
    return ids.length > 0 ? new Set(ids) : `metadata.json lists no sub-series of "${provider}"`;
  } catch (error) {
    return `metadata.json not readable: ${error instanceof Error ? error.message : String(error)}`;
  }
}

async function measureSharedLink(browser: Browser, base: string, upstream: string, root: string): Promise<SharedLink> {
  const indicator = "health-insurance-prices";
  const why: Record<string, string> = {};
  const result: SharedLink = {
    path: null,
    provider: null,
    defaultProvider: null,
    match: { how: "", ids: 0, prefixes: [] },
    correctMs: null,
    correctDomMs: null,
    wrongMs: null,
    wrongSeries: [],
    endedCorrect: null,
    finalSeries: null,
    load: null,
    why,
  };
  const html = pageHtml(root, `/series/${indicator}/`);
  const options = html === undefined ? [] : selectOptions(html, "provider");
  if (options.length < 2) {
    why.all = html === undefined ? `no dist/series/${indicator}/index.html` : 'the page has no <select name="provider"> with two options';
    return result;
  }
  const byDefault = options.find((o) => o.selected) ?? options[0];
  const mucam = options.find((o) => !o.selected && (o.label === "Médica Uruguaya" || o.label.startsWith("Médica Uruguaya")));
  const chosen = mucam ?? [options[1], ...options].find((o) => o !== undefined && !o.selected);
  if (chosen === undefined || byDefault === undefined) {
    why.all = "no provider other than the default";
    return result;
  }
  result.provider = { value: chosen.value, label: chosen.label };
  result.defaultProvider = { value: byDefault.value, label: byDefault.label };
  const ids = await providerSeries(upstream, indicator, chosen.value);
  const isChosen =
    typeof ids === "string" ? (series: string) => series.startsWith(`${chosen.value}.`) : (series: string) => ids.has(series);
  result.match =
    typeof ids === "string"
      ? { how: `id starts with "${chosen.value}." (${ids})`, ids: 0, prefixes: [`${chosen.value}.`] }
      : {
          how: "id is one of the provider's sub-series in /api/v1/health-insurance-prices/metadata.json",
          ids: ids.size,
          prefixes: [...new Set([...ids].map((id) => `${id.split(".")[0]}.`))],
        };
  result.path = `/series/${indicator}/#${new URLSearchParams({ provider: chosen.value }).toString()}`;
  const load = await measureLoad(browser, base, { label: "shared link", path: result.path, form: hasSelectionForm(html) }, true);
  result.load = load;
  const timeline = load.cardTimeline;
  if (timeline === null) {
    why.all = load.why.page ?? "no card timeline recorded";
    return result;
  }
  const end = load.leftAtMs ?? Infinity;
  const last = timeline.at(-1);
  result.finalSeries = last?.series ?? null;
  result.endedCorrect = last?.series != null && isChosen(last.series);
  const first = timeline.find((e) => e.series !== null && isChosen(e.series));
  result.correctDomMs = round(first?.t ?? null);
  const fcp = load.fcpMs;
  if (fcp === null) {
    why.correct = why.wrong = "no first contentful paint: nothing was shown";
    return result;
  }
  if (first === undefined) why.correct = `the card never showed a sub-series of "${chosen.value}" (last: ${result.finalSeries ?? "no card"})`;
  else result.correctMs = round(Math.max(first.t, fcp));
  // Another provider's card on screen: from max(its time, FCP) until the next change, before the correct one.
  const until = first?.t ?? end;
  let wrong = 0;
  timeline.forEach((entry, i) => {
    if (entry.series === null || isChosen(entry.series)) return;
    const from = Math.max(entry.t, fcp);
    const to = Math.min(timeline[i + 1]?.t ?? end, until);
    if (to > from) {
      wrong += to - from;
      if (!result.wrongSeries.includes(entry.series)) result.wrongSeries.push(entry.series);
    }
  });
  result.wrongMs = Math.round(wrong);
  if (first === undefined) why.wrong = `counted until the page was left (${Math.round(end)} ms): the correct card never came`;
  return result;
}

// ---------------------------------------------------------------------------------
// Report

const text = (n: number | null, applicable = true) => (!applicable ? "" : n === null ? "—" : String(n));
const kb = (bytes: number | null) => (bytes === null ? "—" : (bytes / 1024).toFixed(1));

function table(rows: string[][]): string {
  const widths = rows[0]?.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? "").length))) ?? [];
  return rows
    .map((r, ri) => {
      const line = r.map((cell, i) => (i === 0 ? cell.padEnd(widths[i] ?? 0) : cell.padStart(widths[i] ?? 0))).join("  ");
      return ri === 0 ? `${line}\n${widths.map((w) => "-".repeat(w)).join("  ")}` : line;
    })
    .join("\n");
}

function chromiumPath(): string {
  const path = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
  const executable = () => {
    try {
      accessSync(path, constants.X_OK);
      return true;
    } catch {
      return false;
    }
  };
  if (!executable()) execFileSync("bash", [join(REPO, "scripts/ensure-chromium.sh")], { stdio: "inherit" });
  if (!executable()) throw new Error(`no Chromium at ${path}`);
  return path;
}

function git(root: string, args: string[]): string | null {
  try {
    return execFileSync("git", ["-C", root, ...args], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim();
  } catch {
    return null;
  }
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      root: { type: "string" },
      out: { type: "string" },
      encoding: { type: "string" },
      only: { type: "string" },
      help: { type: "boolean", short: "h" },
    },
  });
  if (values.help === true) {
    console.log(USAGE);
    return 0;
  }
  const encoding = (values.encoding ?? "br") as Encoding;
  if (encoding !== "br" && encoding !== "gzip") {
    console.error(`error: --encoding must be br or gzip\n${USAGE}`);
    return 2;
  }
  const root = resolve(values.root ?? REPO);
  const out = resolve(values.out ?? join(REPO, "test-artifacts/phone/measure.json"));
  for (const need of ["dist/index.html", "functions"]) {
    if (!existsSync(join(root, need))) {
      console.error(`error: ${join(root, need)} missing (build with \`npm run build\` in ${root})`);
      return 2;
    }
  }

  const { ids, from } = indicatorIds(root);
  const paths = ["/", "/en/", ...ids.flatMap((id) => [`/series/${id}/`, `/en/series/${id}/`, `/series/${id}/embed/`, `/en/series/${id}/embed/`])];
  const plans: PagePlan[] = paths
    .map((path) => ({ label: path, path, form: hasSelectionForm(pageHtml(root, path)) }))
    .filter((p) => values.only === undefined || p.path.includes(values.only));
  // --only filters the pages by path; the shared link is measured with no --only, or --only shared.
  const measureShared = values.only === undefined || values.only === "shared";

  const commit = git(root, ["rev-parse", "--short", "HEAD"]);
  const dirty = git(root, ["status", "--porcelain", "--untracked-files=no"]);
  const cpu = /^model name\s*:\s*(.*)$/m.exec(readFileSync("/proc/cpuinfo", "utf8"))?.[1] ?? "unknown";
  const executablePath = chromiumPath();

  const cleanups: (() => Promise<void>)[] = [];
  const cleanup = async () => {
    for (const stop of cleanups.splice(0).reverse()) await stop().catch(() => undefined);
  };
  const onSignal = (signal: NodeJS.Signals) => {
    void cleanup().then(() => process.exit(signal === "SIGINT" ? 130 : 143));
  };
  process.once("SIGINT", onSignal);
  process.once("SIGTERM", onSignal);
  try {
    const wrangler = await startPagesDev("dist", {}, root);
    cleanups.push(() => wrangler.stop());
    const proxy = await startProxy(wrangler.url, encoding);
    cleanups.push(() => proxy.stop());
    const browser = await chromium.launch({ executablePath, headless: true, args: CHROMIUM_ARGS });
    cleanups.push(() => browser.close());
    const machine = {
      cpu,
      cores: cpus().length,
      loadAverageAtStart: loadavg().map((l) => Number(l.toFixed(2))),
      node: process.version,
      chromium: browser.version(),
      wrangler: wranglerVersion(),
    };
    console.log(`root      ${root}`);
    console.log(`commit    ${commit ?? "unknown (not a git checkout)"}${dirty ? " (working tree has uncommitted changes)" : ""}`);
    console.log(`machine   ${machine.cpu}, ${machine.cores} cores, load ${machine.loadAverageAtStart.join(" ")}`);
    console.log(`software  node ${machine.node}, chromium ${machine.chromium}, wrangler ${machine.wrangler}`);
    console.log(
      `network   Slow 3G: ${SLOW_3G.latency} ms latency, ${SLOW_3G.downloadThroughput} B/s down, ${SLOW_3G.uploadThroughput} B/s up; ` +
        `compression ${encoding === "br" ? `Brotli q${BROTLI_QUALITY} (gzip ${GZIP_LEVEL} if not accepted)` : `gzip ${GZIP_LEVEL}`} for Cloudflare's default types`,
    );
    console.log(`pages     ${plans.length} from ${from}${measureShared ? " + the shared link" : ""}\n`);

    // Warm wrangler up (its first answers are slower), so the first page measured is not penalised.
    for (const plan of plans) await fetch(wrangler.url + plan.path).then((r) => r.arrayBuffer()).catch(() => undefined);

    const loads: Load[] = [];
    for (const plan of plans) {
      const load = await measureLoad(browser, proxy.url, plan, false);
      loads.push(load);
      console.log(
        `  ${plan.path}: ${kb(load.bytes)} KB, ${text(load.requests)} requests, FCP ${text(load.fcpMs)}, load ${text(load.loadMs)}, idle ${text(load.networkIdleMs)}` +
          (plan.form ? `, selects ${text(load.selectsUsableMs)}` : ""),
      );
    }
    const shared = measureShared ? await measureSharedLink(browser, proxy.url, wrangler.url, root) : null;
    if (shared?.load) {
      const l = shared.load;
      console.log(`  ${shared.path}: ${kb(l.bytes)} KB, ${text(l.requests)} requests, FCP ${text(l.fcpMs)}, correct ${text(shared.correctMs)}, wrong ${text(shared.wrongMs)}`);
    }
    const loadAverageAtEnd = loadavg().map((l) => Number(l.toFixed(2)));

    const header = ["page", "KB", "requests", "FCP ms", "load ms", "idle ms", "selects usable ms", "shared link correct ms / wrong ms"];
    const rows = loads.map((l) => [
      l.label,
      kb(l.bytes),
      text(l.requests),
      text(l.fcpMs),
      text(l.loadMs),
      text(l.networkIdleMs),
      text(l.selectsUsableMs, l.why.selectsUsable?.startsWith("not applicable") !== true),
      "",
    ]);
    if (shared !== null) {
      const l = shared.load;
      rows.push([
        `shared link ${shared.path === null ? "(not measured)" : decodeURIComponent(shared.path.replace(/\+/g, " "))}`,
        kb(l?.bytes ?? null),
        text(l?.requests ?? null),
        text(l?.fcpMs ?? null),
        text(l?.loadMs ?? null),
        text(l?.networkIdleMs ?? null),
        text(l?.selectsUsableMs ?? null, l !== null && l.why.selectsUsable?.startsWith("not applicable") !== true),
        `${text(shared.correctMs)} / ${text(shared.wrongMs)}${shared.endedCorrect === null ? "" : shared.endedCorrect ? " (ended correct)" : " (ended WRONG)"}`,
      ]);
    }
    console.log(`\n${table([header, ...rows])}`);
    console.log(
      `\nKB = 1,024 bytes on the wire (headers + bodies as received); times in ms from navigation start; idle = last response ` +
        `finished, with nothing in flight for ${QUIET_MS / 1000} s after; "—" = not measurable (reason in the JSON), blank = not applicable.`,
    );
    if (shared?.provider) {
      console.log(
        `shared link: provider "${shared.provider.value}" (default "${shared.defaultProvider?.value ?? "?"}"); final card ${shared.finalSeries ?? "none"}; ` +
          `other providers' cards shown: ${shared.wrongSeries.join(", ") || "none"}`,
      );
    }
    for (const [key, reason] of Object.entries(shared?.why ?? {})) console.log(`shared link ${key}: ${reason}`);
    console.log("\nbiggest responses:");
    for (const l of [...loads, ...(shared?.load ? [shared.load] : [])]) {
      const list = l.biggest.map((r) => `${r.url} ${r.mimeType || r.type}${r.encoding ? ` ${r.encoding}` : ""} ${kb(r.bytes)} KB`);
      console.log(`  ${l.label === "shared link" ? (shared?.path ?? l.label) : l.label}: ${list.join("; ")}`);
    }

    const report = {
      measuredAt: new Date().toISOString(),
      root,
      commit,
      workingTreeDirty: dirty !== null && dirty !== "",
      machine: { ...machine, loadAverageAtEnd },
      settings: {
        network: { preset: "Slow 3G (Chrome DevTools, front_end/core/sdk/NetworkManager.ts)", ...SLOW_3G },
        cpuThrottling: "none",
        phone: PHONE,
        chromiumArgs: CHROMIUM_ARGS,
        quietMs: QUIET_MS,
        capMs: CAP_MS,
        compression: {
          source: "https://developers.cloudflare.com/speed/optimization/content/compression/",
          preferred: encoding,
          gzipLevel: GZIP_LEVEL,
          brotliQuality: BROTLI_QUALITY,
          statuses: [...COMPRESSED_STATUSES],
          minBytes: MIN_BYTES,
          types: [...CLOUDFLARE_COMPRESSED_TYPES],
        },
        indicatorsFrom: from,
      },
      pages: loads,
      sharedLink: shared,
    };
    mkdirSync(dirname(out), { recursive: true });
    writeFileSync(out, `${JSON.stringify(report, null, 2)}\n`);
    console.log(`\nraw numbers: ${out}`);
    return 0;
  } finally {
    await cleanup();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
    process.exit(1);
  },
);
