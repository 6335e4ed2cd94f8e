/**
 * No function in src/ longer than 80 lines: every function, method, accessor and
 * arrow, found with the TypeScript compiler's parser, measured from its first line
 * to its last (nested functions included in their parent's count). Exempt: a
 * declarative literal, a function whose whole body is one object or array literal
 * (returned, or an arrow's expression), which reads as a table however long it is.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "../..");
const MAX_LINES = 80;

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : /\.tsx?$/.test(name) && !name.endsWith(".d.ts") ? [path] : [];
  });
}

/** An expression without its parentheses and type assertions. */
function bare(node: ts.Expression): ts.Expression {
  let e = node;
  while (ts.isParenthesizedExpression(e) || ts.isAsExpression(e) || ts.isSatisfiesExpression(e) || ts.isTypeAssertionExpression(e)) e = e.expression;
  return e;
}

/** An object or array literal, or one call of literals (a schema: `z.strictObject({ … })`). */
function isLiteral(node: ts.Expression): boolean {
  const e = bare(node);
  if (ts.isObjectLiteralExpression(e) || ts.isArrayLiteralExpression(e)) return true;
  return ts.isCallExpression(e) && e.arguments.length > 0 && e.arguments.every((a) => ts.isObjectLiteralExpression(bare(a)) || ts.isArrayLiteralExpression(bare(a)));
}

/**
 * True for a declarative literal: a function whose body is one literal (`isLiteral`),
 * as an arrow's expression or returned, after nothing but constants that are
 * literals themselves (the parts of a table named before it is returned).
 */
export function isDeclarativeLiteral(fn: ts.FunctionLikeDeclaration): boolean {
  const body = fn.body;
  if (body === undefined) return false;
  if (!ts.isBlock(body)) return isLiteral(body);
  const statements = [...body.statements];
  const last = statements.pop();
  const constants = statements.every(
    (s) =>
      ts.isVariableStatement(s) &&
      (s.declarationList.flags & ts.NodeFlags.Const) !== 0 &&
      s.declarationList.declarations.every((d) => d.initializer !== undefined && isLiteral(d.initializer)),
  );
  return constants && last !== undefined && ts.isReturnStatement(last) && last.expression !== undefined && isLiteral(last.expression);
}

/** A function's name as a reader finds it: its own, its variable's or property's, or `(anonymous)`. */
function nameOf(fn: ts.FunctionLikeDeclaration): string {
  if (fn.name !== undefined) return fn.name.getText();
  const parent = fn.parent;
  if ((ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent)) && parent.name !== undefined) return parent.name.getText();
  return ts.isConstructorDeclaration(fn) ? "constructor" : "(anonymous)";
}

/** Every function-like node of a source text, with its name, first line and line count. */
export function functionLengths(path: string, text: string): { name: string; line: number; lines: number; exempt: boolean }[] {
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
  const found: { name: string; line: number; lines: number; exempt: boolean }[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isFunctionLike(node) && "body" in node && node.body !== undefined) {
      const fn = node;
      const first = source.getLineAndCharacterOfPosition(fn.getStart(source)).line;
      const last = source.getLineAndCharacterOfPosition(fn.getEnd()).line;
      found.push({ name: nameOf(fn), line: first + 1, lines: last - first + 1, exempt: isDeclarativeLiteral(fn) });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe("function length", () => {
  const all = files(join(ROOT, "src")).flatMap((path) => functionLengths(path, readFileSync(path, "utf8")).map((f) => ({ ...f, where: `${relative(ROOT, path)}:${f.line} ${f.name}` })));

  it(`no function in src/ is longer than ${MAX_LINES} lines (declarative literals aside)`, () => {
    const measured = all.filter((f) => !f.exempt).sort((a, b) => b.lines - a.lines);
    console.log(`the five longest functions in src/:\n${measured.slice(0, 5).map((f) => `  ${f.lines} ${f.where}`).join("\n")}`);
    const exempt = all.filter((f) => f.exempt && f.lines > MAX_LINES);
    if (exempt.length > 0) console.log(`exempt (one literal) over ${MAX_LINES}:\n${exempt.map((f) => `  ${f.lines} ${f.where}`).join("\n")}`);
    expect(measured.filter((f) => f.lines > MAX_LINES).map((f) => `${f.lines} lines: ${f.where}`)).toEqual([]);
  });

  it("measures functions, methods and arrows, and exempts only a body that is one literal", () => {
    const text = [
      "function a() {", "  return 1;", "}",
      "const b = () => ({", "  x: 1,", "});",
      "class C {", "  m() {", "    const f = function () {", "      return [];", "    };", "    return f;", "  }", "}",
      "const s = (t: boolean) => z.object({", "  a: t,", "});",
      "function table() {", "  const row = { a: 1 };", "  return [row];", "}",
      "function notTable() {", "  let row = { a: 1 };", "  return [row];", "}",
      "const call = () => f(x);",
    ].join("\n");
    expect(functionLengths("x.ts", text)).toEqual([
      { name: "a", line: 1, lines: 3, exempt: false },
      { name: "b", line: 4, lines: 3, exempt: true },
      { name: "m", line: 8, lines: 6, exempt: false },
      { name: "f", line: 9, lines: 3, exempt: true },
      { name: "s", line: 15, lines: 3, exempt: true },
      { name: "table", line: 18, lines: 4, exempt: true },
      { name: "notTable", line: 22, lines: 4, exempt: false },
      { name: "call", line: 26, lines: 1, exempt: false },
    ]);
  });
});
