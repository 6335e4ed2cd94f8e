/**
 * ESLint rule `house/function-length` (eslint.config.js, on src/): no function longer
 * than `max` lines (80). Every function, method, accessor and arrow is measured from
 * its first line to its last, nested functions included in their parent's count (a
 * method from its name, where a reader sees it begin). Exempt: a declarative literal,
 * a function whose whole body is one object or array literal, or one call of literals
 * (a schema: `z.strictObject({ … })`), as an arrow's expression or returned after
 * nothing but constants that are literals themselves, which reads as a table however
 * long it is.
 *
 * A lint rule, not a test: ESLint has parsed every file already, so the measure costs
 * nothing more (as a unit test it loaded TypeScript's compiler and parsed src/ again:
 * about 2 of the unit layer's 18 CPU-seconds). `npx eslint --rule
 * 'house/function-length: [error, {max: 60}]' src` lists the functions over 60 lines.
 * test/integration/function-length.test.ts shows what it measures and exempts.
 */

/** An expression without its type assertions (ESTree keeps no parentheses). */
function bare(node) {
  let e = node;
  while (e.type === "TSAsExpression" || e.type === "TSSatisfiesExpression" || e.type === "TSTypeAssertion") e = e.expression;
  return e;
}

const isTable = (node) => node.type === "ObjectExpression" || node.type === "ArrayExpression";

/** An object or array literal, or one call of literals. */
function isLiteral(node) {
  const e = bare(node);
  if (isTable(e)) return true;
  return e.type === "CallExpression" && e.arguments.length > 0 && e.arguments.every((a) => a.type !== "SpreadElement" && isTable(bare(a)));
}

/** True for a declarative literal: the whole body one literal, after nothing but literal constants. */
export function isDeclarativeLiteral(fn) {
  if (fn.body.type !== "BlockStatement") return isLiteral(fn.body);
  const statements = [...fn.body.body];
  const last = statements.pop();
  const constants = statements.every((s) => s.type === "VariableDeclaration" && s.kind === "const" && s.declarations.every((d) => d.init !== null && isLiteral(d.init)));
  return constants && last !== undefined && last.type === "ReturnStatement" && last.argument !== null && isLiteral(last.argument);
}

/** Where a function begins for a reader (a method or accessor at its name) and what it is called. */
function named(fn) {
  const parent = fn.parent;
  const keyed = (parent.type === "MethodDefinition" || parent.type === "Property" || parent.type === "PropertyDefinition") && parent.value === fn;
  const start = parent.type === "MethodDefinition" || (keyed && parent.type === "Property" && (parent.method || parent.kind !== "init")) ? parent.loc.start : fn.loc.start;
  const key = keyed ? parent.key : parent.type === "VariableDeclarator" && parent.init === fn ? parent.id : null;
  const name = fn.id?.name ?? (key?.type === "Identifier" ? key.name : key?.type === "Literal" ? String(key.value) : parent.kind === "constructor" ? "constructor" : "(anonymous)");
  return { start, name };
}

export default {
  meta: {
    type: "suggestion",
    docs: { description: "no function longer than max lines, declarative literals aside" },
    schema: [{ type: "object", properties: { max: { type: "integer", minimum: 1 } }, additionalProperties: false }],
    messages: { long: "{{name}} is {{lines}} lines long (at most {{max}}): split it" },
  },
  create(context) {
    const max = context.options[0]?.max ?? 80;
    const check = (fn) => {
      const { start, name } = named(fn);
      const lines = fn.loc.end.line - start.line + 1;
      if (lines > max && !isDeclarativeLiteral(fn)) context.report({ node: fn, loc: { start, end: fn.loc.end }, messageId: "long", data: { name, lines, max } });
    };
    return { FunctionDeclaration: check, FunctionExpression: check, ArrowFunctionExpression: check };
  },
};
