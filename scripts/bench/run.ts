/**
 * `npm run bench [-- --quick] [--only=build|function|http] [--sizes=1000,10000] [--shapes=few-long]`:
 * the three performance tables (README "Performance").
 * Not part of `npm test`: nothing here asserts a speed.
 */
import { cpus, totalmem } from "node:os";
import { buildScaling } from "./build-scaling.js";
import type { Shape } from "./generate.js";
import { functionCpu } from "./function-cpu.js";
import { httpThroughRuntime } from "./http.js";

const quick = process.argv.includes("--quick");
const only = process.argv.find((a) => a.startsWith("--only="))?.slice(7);
const option = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const sizes = option("sizes")?.split(",").map(Number) ?? (quick ? [1_000, 10_000] : [1_000, 10_000, 100_000, 1_000_000]);
const shapes = (option("shapes")?.split(",") ?? ["few-long", "many-short"]) as Shape[];

console.log(`Open Series UY benchmark${quick ? " (quick)" : ""}: ${new Date().toISOString()}`);
console.log(`machine: ${cpus()[0]?.model ?? "?"}, ${cpus().length} cores, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}\n`);

if (only === undefined || only === "build" || only === "function") {
  const { text, runs } = await buildScaling(sizes, shapes);
  if (only !== "function") console.log(text);
  if (only === undefined || only === "function") console.log(await functionCpu(runs, quick ? 50 : 200));
}
if (only === undefined || only === "http") console.log(await httpThroughRuntime(quick ? 3 : 10));
