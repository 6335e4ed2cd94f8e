/** The integration layer's shared fixture: the real data built once (test/real-build.ts), read by the files with `inject("realDist")`. */
import type { TestProject } from "vitest/node";
import { realBuild } from "../real-build.js";

declare module "vitest" {
  export interface ProvidedContext {
    realDist: string;
  }
}

export default async function setup(project: TestProject): Promise<void> {
  project.provide("realDist", await realBuild());
}
