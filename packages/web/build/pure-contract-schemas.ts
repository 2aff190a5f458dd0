import ts from 'typescript';
import type { Plugin } from 'vite';

const CONTRACTS_SOURCE = /[\\/]packages[\\/]contracts[\\/]src[\\/][^\\/]+\.ts$/;

/**
 * The contracts package builds its zod schemas at module level, often from other schemas
 * (`exchange.default(…)`, `backtestSettings.optional()`), which the bundler cannot prove free of
 * side effects. The web app only uses its types and plain constants, so every top-level
 * initializer that calls something (`const x = call(…)`, but also `const page = { n: z.…() }`)
 * is wrapped in a pure-annotated arrow call: the same evaluation, but an unused schema (and with
 * it zod) is dropped from the bundle.
 */
export function pureContractSchemas(): Plugin {
  return {
    name: 'quantsquare:pure-contract-schemas',
    apply: 'build',
    enforce: 'pre',
    transform(code, id) {
      if (!CONTRACTS_SOURCE.test(id)) return null;
      const source = ts.createSourceFile(id, code, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
      const spans: { start: number; end: number }[] = [];
      for (const statement of source.statements) {
        if (!ts.isVariableStatement(statement)) continue;
        for (const declaration of statement.declarationList.declarations) {
          const init = declaration.initializer;
          if (init && containsCall(init)) {
            spans.push({ start: init.getStart(source), end: init.getEnd() });
          }
        }
      }
      if (spans.length === 0) return null;
      let out = code;
      for (const { start, end } of spans.reverse()) {
        out = `${out.slice(0, start)}/* @__PURE__ */ (() => (${out.slice(start, end)}))()${out.slice(end)}`;
      }
      return { code: out, map: null };
    },
  };
}

/** Whether an expression calls a function outside any function body it defines. */
function containsCall(node: ts.Node): boolean {
  if (ts.isCallExpression(node) || ts.isNewExpression(node)) return true;
  if (ts.isArrowFunction(node) || ts.isFunctionExpression(node)) return false;
  return ts.forEachChild(node, containsCall) === true;
}
