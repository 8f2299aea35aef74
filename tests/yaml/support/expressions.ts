/**
 * GitHub Actions expressions (`${{ … }}`): finding them, the context paths they read, and substituting the
 * plain property reads a runner would (the only form this project's action uses). Anything richer is
 * refused by name rather than guessed at, so a new expression in action.yml makes the test say so.
 */

const EXPRESSION = /\$\{\{([\s\S]*?)\}\}/g;
/** A plain property read: `inputs.node-version`, `steps.run.outputs.exit-code` (names may hold `-`). */
const PROPERTY_PATH = /^[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_-]*)*$/;
/** A reference inside a richer expression: a context path, not a function name nor a literal. */
const REFERENCE = /(?<![\w.-])([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_*][A-Za-z0-9_-]*)*)(?!\s*\(|[\w-])/g;
const LITERALS = new Set(['true', 'false', 'null']);

/** The expressions of a string, their inner text trimmed. */
export function expressionsIn(text: string): string[] {
  return [...text.matchAll(EXPRESSION)].map((match) => match[1]!.trim());
}

/** The context paths an expression reads (`always() && steps.a.outputs.b` → [['steps','a','outputs','b']]). */
export function referencesOf(expression: string): string[][] {
  const withoutStrings = expression.replace(/'(?:[^']|'')*'/g, "''");
  return [...withoutStrings.matchAll(REFERENCE)]
    .map((match) => match[1]!)
    .filter((name) => !LITERALS.has(name))
    .map((name) => name.split('.'));
}

/**
 * Replaces each `${{ path }}` as the runner does: by the value at that path, or the empty string when there
 * is none. Throws on an expression that is not a plain property read.
 */
export function substitute(text: string, lookup: (path: string[]) => string | undefined): string {
  return text.replace(EXPRESSION, (_whole, inner: string) => {
    const expression = inner.trim();
    if (!PROPERTY_PATH.test(expression)) {
      throw new Error(`the test's runner evaluates only property reads; teach it \`${expression}\` (tests/yaml/support/expressions.ts)`);
    }
    return lookup(expression.split('.')) ?? '';
  });
}
