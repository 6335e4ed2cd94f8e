/**
 * `npm run docs`: writes docs/api.md's generated tables (the query parameters and the
 * endpoints, src/builder/docs-tables.ts) between their markers.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { withTables } from "../src/builder/docs-tables.js";

const file = join(import.meta.dirname, "../docs/api.md");
const before = readFileSync(file, "utf8");
const after = withTables(before);
if (after !== before) writeFileSync(file, after);
console.log(after === before ? "docs/api.md: tables up to date" : "docs/api.md: tables written");
