/**
 * Debian's nginx serving a folder with the project's example server
 * (deploy/nginx.conf), as an offline mirror runs it: on a free loopback port, its
 * logs and temporary files in a folder of its own. For the mirror tests
 * (test/reliability/mirror.test.ts, test/e2e/offline-mirror.test.ts).
 */
import { spawn, spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { freePort } from "../scripts/lib/pages-dev.js";
import { ROOT, tempDir } from "./helpers.js";

export interface Nginx {
  readonly url: string;
  stop(): void;
}

/** Whether nginx is there, installed by scripts/ensure-nginx.sh when it is not (false: the tests that need it are skipped). */
export function ensureNginx(): boolean {
  return spawnSync("bash", [join(ROOT, "scripts/ensure-nginx.sh")], { encoding: "utf8" }).status === 0;
}

/** Resolves once `url` answers at all (nginx takes a moment to bind). */
export async function waitFor(url: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    try {
      await fetch(url);
      return;
    } catch {
      if (Date.now() > deadline) throw new Error(`${url} did not answer`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

/** Starts nginx with deploy/nginx.conf serving `root`, and waits until it answers. */
export async function startNginx(root: string): Promise<Nginx> {
  const port = await freePort();
  const prefix = await tempDir("nginx-");
  // Started as root, nginx's workers run as nobody: the folder must be readable by others, and
  // every folder above it traversable, up to the temporary folder (npm test's own, 0700, scripts/in-temp.sh).
  const top = root.startsWith(`${tmpdir()}/`) ? tmpdir() : dirname(root);
  for (let dir = root; dir.startsWith(top); dir = dirname(dir)) chmodSync(dir, statSync(dir).mode | 0o055);
  mkdirSync(join(prefix, "logs"));
  const server = readFileSync(join(ROOT, "deploy/nginx.conf"), "utf8")
    .replace("listen 8080;", `listen 127.0.0.1:${port};`)
    .replace("root /srv/open-series-uy/dist;", `root ${root};`);
  writeFileSync(
    join(prefix, "nginx.conf"),
    `daemon off;\npid ${prefix}/nginx.pid;\nerror_log ${prefix}/logs/error.log;\nevents {}\nhttp {\naccess_log off;\nclient_body_temp_path ${prefix};\n${server}\n}\n`,
  );
  const child = spawn("/usr/sbin/nginx", ["-p", prefix, "-c", join(prefix, "nginx.conf")], { stdio: "ignore" });
  const url = `http://127.0.0.1:${port}`;
  await waitFor(url);
  return { url, stop: () => void child.kill("SIGTERM") };
}
