/** The types of scripts/lint/function-length.js (plain JavaScript: eslint.config.js imports it without a loader). */
import type { Rule } from "eslint";

declare const functionLength: Rule.RuleModule;
export default functionLength;
export function isDeclarativeLiteral(fn: unknown): boolean;
