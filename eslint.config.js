// Lint configuration: typescript-eslint's recommended type-aware rules, zero warnings
// allowed, and the runtime boundaries of src/ (docs/DESIGN.md §5): `core/` runs in
// Node, workerd and the browser, `api/` in workerd, `site/client/` in the browser,
// so none of them may import Node's modules or the Node-only folders.
import tseslint from "typescript-eslint";
import functionLength from "./scripts/lint/function-length.js";

const NODE_ONLY = ["node:*", "fast-glob", "commander", "esbuild", "csv-parse", "csv-parse/*", "csv-stringify", "csv-stringify/*"];
const boundary = (folders, message) => ({
  "no-restricted-imports": [
    "error",
    {
      patterns: [
        { group: NODE_ONLY, message: `${message}: no Node-only module here.` },
        { group: folders.map((folder) => `**/${folder}/*`), message: `${message}: it may not import ${folders.join(", ")}.` },
      ],
    },
  ],
});

export default tseslint.config(
  { ignores: ["dist/", "dist.*/", "node_modules/", ".wrangler/", "test-artifacts/", "test/fixtures/**/expected/**"] },
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: { parserOptions: { projectService: { allowDefaultProject: ["*.js", "scripts/lint/*.js"] }, tsconfigRootDir: import.meta.dirname } },
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_" }],
      "@typescript-eslint/consistent-type-imports": "error",
    },
  },
  { files: ["src/core/**/*.ts"], rules: boundary(["api", "builder", "source", "site"], "src/core/ runs in every runtime") },
  { files: ["src/api/**/*.ts", "functions/**/*.ts"], rules: boundary(["builder", "source", "site"], "src/api/ runs in workerd") },
  { files: ["src/site/client/**/*.ts"], rules: boundary(["api", "builder", "source"], "src/site/client/ runs in the browser") },
  // The pages are rendered from the view model the build makes (src/site/model.ts): site/ never reads builder/ or source/.
  { files: ["src/site/*.ts"], rules: boundary(["api", "builder", "source"], "src/site/ renders the build's view model") },
  // No function in src/ longer than 80 lines, declarative literals aside (scripts/lint/function-length.js).
  { files: ["src/**/*.ts"], plugins: { house: { rules: { "function-length": functionLength } } }, rules: { "house/function-length": ["error", { max: 80 }] } },
  { files: ["*.js", "scripts/lint/*.js"], ...tseslint.configs.disableTypeChecked },
);
