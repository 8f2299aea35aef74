/**
 * Every YAML the project ships parses, as its consumer parses it, and means what its consumer expects:
 * action.yml against GitHub's action metadata rules, the ```yaml snippets of the docs against the tool each
 * is for (GitHub workflow, GitLab CI, the k6 operator). The validators are shown to catch what they claim
 * on broken copies (action.yml's own break of 2178f50 among them), so a pass here means something.
 * The Jenkins snippet of docs/ci.md is Groovy, not YAML: not parsed here.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../cli/support.js';
import { actionProblems } from './support/action-metadata.js';
import { snippetKind, snippetProblems, type OwnAction } from './support/ci-configs.js';
import { parseYamlSource, shippedYaml, yamlFences, type YamlSource } from './support/yaml-sources.js';

const SOURCES = shippedYaml(ROOT);
const ACTION_SOURCE: YamlSource = { origin: 'action.yml', file: 'action.yml', firstLine: 1, text: readFileSync(join(ROOT, 'action.yml'), 'utf8') };
const action = parseYamlSource(ACTION_SOURCE) as Record<string, Record<string, unknown>>;
const OWN: OwnAction = { inputs: Object.keys(action.inputs ?? {}), outputs: Object.keys(action.outputs ?? {}) };
const SNIPPETS = SOURCES.filter((source) => source.origin !== source.file);

describe('the YAML the project ships', () => {
  it('is found: action.yml and the fences of README, docs/ci.md, docs/load.md and docs/running.md', () => {
    const files = new Set(SOURCES.map((source) => source.file));
    for (const file of ['action.yml', 'README.md', 'docs/ci.md', 'docs/load.md', 'docs/running.md']) expect(files, file).toContain(file);
  });

  it.each(SOURCES.map((source) => [source.origin, source] as const))('%s parses (YAML 1.2, no duplicate key, no warning)', (_origin, source) => {
    expect(() => parseYamlSource(source)).not.toThrow();
  });

  it('action.yml follows the action metadata rules', () => {
    expect(actionProblems(action)).toEqual([]);
  });

  it.each(SNIPPETS.map((source) => [source.origin, source] as const))('the snippet at %s is valid for the tool it is for', (_origin, source) => {
    const value = parseYamlSource(source);
    expect(snippetKind(value), source.text).not.toBe('unknown');
    expect(snippetProblems(value, OWN)).toEqual([]);
  });
});

describe('the checks catch what they claim', () => {
  it("action.yml's break of 2178f50 (an input pasted into setup-node's with:) fails to parse at its line", () => {
    const broken = ACTION_SOURCE.text.replace(
      '        node-version: ${{ inputs.node-version }}\n',
      "        package:\n    description: \"What to install\"\n    required: false\n    default: ''\n  node-version: ${{ inputs.node-version }}\n",
    );
    expect(broken).not.toBe(ACTION_SOURCE.text);
    // The issue's own words: "All mapping items must start at the same column at line 54".
    const line = broken.split('\n').indexOf('        package:') + 1;
    expect(() => parseYamlSource({ ...ACTION_SOURCE, text: broken })).toThrow(`action.yml:${line}:17: BAD_INDENT: All mapping items must start at the same column`);
  });

  it('a fence is read at its place, without its indentation, and its errors point into the Markdown file', () => {
    const markdown = ['# t', '', '  ```yaml', '  a: 1', '  a: 2', '  ```', ''].join('\n');
    const [fence] = yamlFences('doc.md', markdown);
    expect(fence).toEqual({ origin: 'doc.md:3', file: 'doc.md', firstLine: 4, text: 'a: 1\na: 2\n' });
    expect(() => parseYamlSource(fence!)).toThrow(/doc\.md:5:1: DUPLICATE_KEY/);
    expect(() => yamlFences('doc.md', '```yaml\na: 1\n')).toThrow('doc.md:1: a ```yaml fence that is never closed');
  });

  const step = (fields: Record<string, unknown>): Record<string, unknown> => ({ name: 's', shell: 'bash', run: 'true', ...fields });
  const withSteps = (...steps: Array<Record<string, unknown>>): Record<string, unknown> => ({
    ...action,
    runs: { using: 'composite', steps: [{ id: 'first', ...step({}) }, ...steps] },
  });
  it.each([
    ['no name', { ...action, name: undefined }, 'name: required'],
    ['an input without description', { ...action, inputs: { x: { required: false } } }, 'inputs.x.description: required'],
    ['an output without value', { ...action, outputs: { x: { description: 'd' } } }, 'outputs.x.value: required'],
    ['another runner', { ...action, runs: { using: 'node20', main: 'x.js' } }, 'runs.using: must be composite'],
    ['a run step without shell', withSteps({ run: 'echo' , shell: undefined }), 'runs.steps[1].shell:'],
    ['a step with run and uses', withSteps(step({ uses: 'actions/checkout@v5' })), 'either `run` or `uses`, not both'],
    ['with: on a run step', withSteps(step({ with: { a: 1 } })), 'only a `uses` step takes inputs'],
    ['an empty with: value (the 2178f50 shape once parsed)', withSteps({ uses: 'actions/setup-node@v6', with: { package: null } }), 'must be a string, number or boolean, got an empty value'],
    ['an input expanded in a script', withSteps(step({ run: 'echo ${{ inputs.args }}' })), 'pasted into the script (shell injection)'],
    ['an undeclared input', withSteps(step({ env: { A: '${{ inputs.nope }}' } })), 'an input action.yml does not declare'],
    ['a later step read', withSteps(step({ env: { A: '${{ steps.later.outputs.x }}' } }), { id: 'later', ...step({}) }), "not an earlier step's id"],
    ['secrets in a composite action', withSteps(step({ env: { A: '${{ secrets.TOKEN }}' } })), 'a composite action has no secrets context'],
    ['an expression where none is evaluated', { ...action, description: 'costs ${{ inputs.out }}' }, 'description: `${{ }}` is not evaluated here'],
    ['a duplicate step id', withSteps({ id: 'first', ...step({}) }), 'is used by an earlier step'],
  ])('action metadata: %s', (_name, broken, expected) => {
    const problems = actionProblems(JSON.parse(JSON.stringify(broken)));
    expect(problems.join('\n')).toContain(expected);
  });

  it.each([
    ['an input the action lacks', [{ id: 'c', uses: 'o/access-conformance@v1', with: { profil: 'p.json' } }], 'action.yml has no input profil'],
    ['an output the action lacks', [{ id: 'c', uses: 'o/access-conformance@v1' }, { uses: 'actions/upload-artifact@v5', with: { path: '${{ steps.c.outputs.reports }}' } }], 'action.yml has no output reports'],
    ['a step read before it ran', [{ run: 'echo ${{ steps.c.outputs.verdict }}' }, { id: 'c', uses: 'o/access-conformance@v1' }], "not an earlier step's id"],
    ['a GitLab script that is a mapping', { job: { script: { a: 1 } } }, 'job.script: a command or a sequence of commands'],
    ['a GitLab artifacts.when of another spelling', { job: { script: ['x'], artifacts: { when: 'allways' } } }, 'job.artifacts.when: on_success, on_failure or always'],
    ['a TestRun with two script sources', { apiVersion: 'k6.io/v1alpha1', kind: 'TestRun', metadata: { name: 'n' }, spec: { script: { configMap: {}, localFile: 'x' } } }, 'exactly one of configMap'],
    ['an unknown kind of snippet', { something: 'else' }, 'not a snippet kind the test knows'],
  ])('docs snippets: %s', (_name, snippet, expected) => {
    expect(snippetProblems(snippet, OWN).join('\n')).toContain(expected);
  });
});
