/** Requirement-ID lists written compactly for the generated tables. */

/** `TOK-09`, `TOK-10`, `TOK-11` → `TOK-09…11` only when consecutive; keeps long lists readable. */
export function compactIds(list: readonly string[]): string {
  const parts: string[] = [];
  let i = 0;
  while (i < list.length) {
    const match = /^(.*-)(\d+)$/.exec(list[i]!);
    let j = i;
    if (match) {
      while (j + 1 < list.length) {
        const nextMatch = /^(.*-)(\d+)$/.exec(list[j + 1]!);
        if (!nextMatch || nextMatch[1] !== match[1] || Number(nextMatch[2]) !== Number(/(\d+)$/.exec(list[j]!)![1]) + 1) break;
        j += 1;
      }
    }
    parts.push(j - i >= 2 ? `${list[i]}…${/(\d+)$/.exec(list[j]!)![1]}` : list.slice(i, j + 1).join(', '));
    i = j + 1;
  }
  return parts.join(', ');
}
