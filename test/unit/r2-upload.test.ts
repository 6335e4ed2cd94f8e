/**
 * What `npm run deploy` uploads to R2 (src/builder/r2-upload.ts): only keys the
 * ledger does not list, to the bucket wrangler.toml binds, with `--remote`.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { bucketName, ledgerKeys, uploadCommands } from "../../src/builder/r2-upload.js";
import { R2_BINDING } from "../../src/core/file/hosted.js";
import { ROOT } from "../files.js";

describe("the R2 upload", () => {
  it("reads the bucket wrangler.toml binds as the function's binding", () => {
    expect(bucketName(readFileSync(join(ROOT, "wrangler.toml"), "utf8"), R2_BINDING)).toBe("open-series-uy-files");
    const toml = '[[r2_buckets]]\nbinding = "OTHER"\nbucket_name = "x"\n\n[[r2_buckets]]\nbinding = "FILES"\nbucket_name = "y"\n[vars]\nA = "1"\n';
    expect(bucketName(toml, "FILES")).toBe("y");
    expect(() => bucketName("[vars]\n", "FILES")).toThrow(/binds no R2 bucket as FILES/);
  });

  it("uploads only the keys the ledger does not list, in key order, to the remote bucket", () => {
    const uploaded = ledgerKeys("aa\n\n  cc \n");
    expect(uploadCommands(["dd", "aa", "bb", "cc"], uploaded, "bucket", "/out.r2")).toEqual([
      { key: "bb", args: ["r2", "object", "put", "bucket/bb", "--file", "/out.r2/bb", "--remote"] },
      { key: "dd", args: ["r2", "object", "put", "bucket/dd", "--file", "/out.r2/dd", "--remote"] },
    ]);
  });
});
