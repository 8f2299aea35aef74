/**
 * Every YAML the project ships, as its reader meets it: the tracked `*.yml`/`*.yaml` files, and each
 * ```yaml fence of the tracked Markdown (a user copies those into a workflow or a GitLab file). Parsed with
 * the `yaml` package (YAML 1.2, unique keys) and any error or warning reported at its place in the file
 * it came from, so a broken snippet is found by `README.md:236`, not by its line inside the fence.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseDocument } from 'yaml';

export interface YamlSource {
  /** Where a reader finds it: `action.yml`, or `README.md:227` for the fence opening on that line. */
  origin: string;
  file: string;
  /** The line of `file` the YAML's first line is on (1-based). */
  firstLine: number;
  text: string;
}

const FENCE_OPEN = /^(\s*)```ya?ml\s*$/;

function tracked(root: string, patterns: string[]): string[] {
  return execFileSync('git', ['ls-files', '-z', '--', ...patterns], { cwd: root, encoding: 'utf8' }).split('\0').filter((file) => file !== '');
}

/** The ```yaml fences of a Markdown text, each without the fence's own indentation. */
export function yamlFences(file: string, markdown: string): YamlSource[] {
  const lines = markdown.split('\n');
  const fences: YamlSource[] = [];
  for (let index = 0; index < lines.length; index += 1) {
    const open = FENCE_OPEN.exec(lines[index]!);
    if (!open) continue;
    const indent = open[1]!;
    const body: string[] = [];
    let end = index + 1;
    while (end < lines.length && lines[end]!.trimEnd() !== `${indent}\`\`\``) body.push(lines[end++]!);
    if (end === lines.length) throw new Error(`${file}:${index + 1}: a \`\`\`yaml fence that is never closed`);
    fences.push({
      origin: `${file}:${index + 1}`,
      file,
      firstLine: index + 2,
      text: body.map((line) => (line.startsWith(indent) ? line.slice(indent.length) : line)).join('\n') + '\n',
    });
    index = end;
  }
  return fences;
}

export function shippedYaml(root: string): YamlSource[] {
  const files = tracked(root, ['*.yml', '*.yaml']).map((file) => ({ origin: file, file, firstLine: 1, text: readFileSync(join(root, file), 'utf8') }));
  const fences = tracked(root, ['*.md']).flatMap((file) => yamlFences(file, readFileSync(join(root, file), 'utf8')));
  return [...files, ...fences];
}

/** The source as a plain value; throws with every error and warning at `file:line:column`. */
export function parseYamlSource(source: YamlSource): unknown {
  const doc = parseDocument(source.text, { prettyErrors: true, uniqueKeys: true });
  const problems = [...doc.errors, ...doc.warnings].map((problem) => {
    const [line, column] = problem.linePos?.[0] ? [problem.linePos[0].line, problem.linePos[0].col] : [1, 1];
    return `${source.file}:${source.firstLine + line - 1}:${column}: ${problem.code}: ${problem.message.split('\n')[0]}`;
  });
  if (problems.length > 0) throw new Error(`${source.origin} is not valid YAML:\n${problems.join('\n')}`);
  return doc.toJS() as unknown;
}
