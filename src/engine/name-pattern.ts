/**
 * One regular expression alternation over many literal strings, written as a trie: `(?:a(?:b|c)|d)`
 * instead of `ab|ac|d`. V8 tries an alternation's branches one after another at each position, so a flat
 * list of 17,000 result keys (a thousand operations' per-operation checks) cost every test title 17,000
 * comparisons, in the main thread and the suite thread alike: quadratic in the operations. In a trie a
 * position costs one branch per character. Matches exactly the same texts as the flat alternation.
 */

interface TrieNode {
  end: boolean;
  children: Map<string, TrieNode>;
}

function escapeChar(char: string): string {
  return /[.*+?^${}()|[\]\\/-]/.test(char) ? `\\${char}` : char;
}

function emit(node: TrieNode): string {
  const branches = [...node.children].map(([char, child]) => `${escapeChar(char)}${emit(child)}`);
  if (branches.length === 0) return '';
  const body = branches.length === 1 ? branches[0]! : `(?:${branches.join('|')})`;
  if (!node.end) return body;
  // Both this string and longer ones: the rest is optional.
  return branches.length === 1 ? `(?:${body})?` : `${body}?`;
}

/** The source of a regular expression that matches any of `strings` (none: never matches). */
export function literalAlternation(strings: Iterable<string>): string {
  const root: TrieNode = { end: false, children: new Map() };
  let any = false;
  for (const text of strings) {
    any = true;
    let node = root;
    for (const char of text) {
      let next = node.children.get(char);
      if (!next) node.children.set(char, (next = { end: false, children: new Map() }));
      node = next;
    }
    node.end = true;
  }
  if (!any) return '(?!)';
  // The empty string among others: the whole alternation may match nothing.
  return root.end ? `(?:${emit(root)})?` : emit(root);
}
