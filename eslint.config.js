// Lint configuration: typescript-eslint's recommended type-aware rules, zero warnings allowed.
import tseslint from "typescript-eslint";

export default tseslint.config(
  { ignores: ["dist/", "dist.*/", "node_modules/", ".wrangler/", "test-artifacts/", "test/fixtures/**/expected/**"] },
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: { parserOptions: { projectService: { allowDefaultProject: ["*.js"] }, tsconfigRootDir: import.meta.dirname } },
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_" }],
      "@typescript-eslint/consistent-type-imports": "error",
    },
  },
  { files: ["*.js"], ...tseslint.configs.disableTypeChecked },
);
