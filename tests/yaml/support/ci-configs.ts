/**
 * The CI snippets the docs give a user to copy, checked as the tool that reads them would: a GitHub
 * workflow (or a list of its steps), a GitLab CI job, a Kubernetes object (the k6 operator's TestRun).
 * A snippet of no known kind is a problem itself, so a new kind of snippet gets a check before it ships.
 * Steps that use this project's own action are held to action.yml: only its inputs, only its outputs.
 */
import { expressionsIn, referencesOf } from './expressions.js';
import { isMapping, isScalar, mappingAt, onlyKeys, requireString, stringsIn, type Mapping, type Problems } from './shape.js';
import { checkSteps } from './steps.js';

export interface OwnAction {
  inputs: string[];
  outputs: string[];
}

const WORKFLOW_KEYS = ['name', 'run-name', 'on', 'permissions', 'env', 'defaults', 'concurrency', 'jobs'];
const JOB_KEYS = ['name', 'permissions', 'needs', 'if', 'runs-on', 'environment', 'concurrency', 'outputs', 'env', 'defaults', 'steps', 'timeout-minutes', 'strategy', 'continue-on-error', 'container', 'services', 'uses', 'with', 'secrets'];
const WORKFLOW_CONTEXTS = ['github', 'env', 'vars', 'job', 'jobs', 'steps', 'runner', 'secrets', 'strategy', 'matrix', 'needs', 'inputs'];
/** `uses:` of this project's action as the docs spell it: the published repository or `./` inside it. */
const OWN_ACTION = /(?:^|\/)access-conformance@|^\.\/?$/;

const GITLAB_JOB_KEYS = ['script', 'image', 'services', 'variables', 'stage', 'artifacts', 'before_script', 'after_script', 'rules', 'only', 'except', 'tags', 'needs', 'cache', 'when', 'allow_failure', 'timeout', 'retry', 'dependencies', 'environment', 'interruptible', 'parallel', 'extends', 'coverage', 'resource_group', 'id_tokens', 'secrets', 'inherit'];
const GITLAB_ARTIFACT_KEYS = ['paths', 'exclude', 'when', 'reports', 'expire_in', 'name', 'untracked', 'expose_as', 'public', 'access'];

export type SnippetKind = 'github-workflow' | 'github-steps' | 'gitlab-ci' | 'kubernetes' | 'unknown';

export function snippetKind(value: unknown): SnippetKind {
  if (Array.isArray(value)) return value.every((step) => isMapping(step) && ('run' in step || 'uses' in step)) ? 'github-steps' : 'unknown';
  if (!isMapping(value)) return 'unknown';
  if ('jobs' in value) return 'github-workflow';
  if ('apiVersion' in value && 'kind' in value) return 'kubernetes';
  const jobs = Object.values(value);
  if (jobs.length > 0 && jobs.every((job) => isMapping(job) && 'script' in job)) return 'gitlab-ci';
  return 'unknown';
}

export function snippetProblems(value: unknown, own: OwnAction): Problems {
  const problems: Problems = [];
  const kind = snippetKind(value);
  if (kind === 'github-workflow') checkWorkflow(problems, value as Mapping, own);
  else if (kind === 'github-steps') checkJobSteps(problems, 'steps', value, own);
  else if (kind === 'gitlab-ci') checkGitlab(problems, value as Mapping);
  else if (kind === 'kubernetes') checkKubernetes(problems, value as Mapping);
  else problems.push('not a snippet kind the test knows (GitHub workflow or steps, GitLab CI job, Kubernetes object): add its check in tests/yaml/support/ci-configs.ts');
  return problems;
}

function checkWorkflow(problems: Problems, workflow: Mapping, own: OwnAction): void {
  onlyKeys(problems, '(top)', workflow, WORKFLOW_KEYS);
  const jobs = mappingAt(problems, 'jobs', workflow.jobs) ?? {};
  for (const [id, job] of Object.entries(jobs)) {
    const fields = mappingAt(problems, `jobs.${id}`, job);
    if (!fields) continue;
    onlyKeys(problems, `jobs.${id}`, fields, JOB_KEYS);
    if (fields.uses === undefined && fields['runs-on'] === undefined) problems.push(`jobs.${id}: a job needs runs-on (or uses, for a reusable workflow)`);
    if (fields.uses === undefined) checkJobSteps(problems, `jobs.${id}.steps`, fields.steps, own);
  }
}

function checkJobSteps(problems: Problems, path: string, steps: unknown, own: OwnAction): void {
  const ids = checkSteps(problems, path, steps, 'workflow');
  if (!Array.isArray(steps)) return;
  const ownIds = new Set<string>();
  steps.forEach((step: unknown, index) => {
    if (!isMapping(step)) return;
    const at = `${path}[${index}]`;
    if (typeof step.uses === 'string' && OWN_ACTION.test(step.uses)) {
      if (typeof step.id === 'string') ownIds.add(step.id);
      for (const input of Object.keys(isMapping(step.with) ? step.with : {})) {
        if (!own.inputs.includes(input)) problems.push(`${at}.with.${input}: action.yml has no input ${input} (it has ${own.inputs.join(', ')})`);
      }
    }
    for (const { path: where, text } of stringsIn(step, at)) {
      for (const reference of expressionsIn(text).flatMap(referencesOf)) {
        const [context, stepId, kind, output] = reference;
        if (!WORKFLOW_CONTEXTS.includes(context!)) problems.push(`${where}: \`${reference.join('.')}\`: a workflow has no ${context} context`);
        if (context !== 'steps') continue;
        if (!ids.slice(0, index).includes(stepId)) problems.push(`${where}: \`${reference.join('.')}\` reads a step that is not an earlier step's id`);
        else if (ownIds.has(stepId!) && kind === 'outputs' && !own.outputs.includes(output ?? '')) {
          problems.push(`${where}: \`${reference.join('.')}\`: action.yml has no output ${output} (it has ${own.outputs.join(', ')})`);
        }
      }
    }
  });
}

function checkGitlab(problems: Problems, jobs: Mapping): void {
  for (const [id, job] of Object.entries(jobs)) {
    const fields = job as Mapping;
    onlyKeys(problems, id, fields, GITLAB_JOB_KEYS);
    for (const key of ['script', 'before_script', 'after_script']) {
      const script = fields[key];
      if (script === undefined) continue;
      const lines = Array.isArray(script) ? script : [script];
      if (lines.length === 0 || !lines.every((line) => typeof line === 'string')) problems.push(`${id}.${key}: a command or a sequence of commands (strings)`);
    }
    const image = fields.image;
    if (image !== undefined && typeof image !== 'string') {
      const name = mappingAt(problems, `${id}.image`, image);
      if (name) {
        onlyKeys(problems, `${id}.image`, name, ['name', 'entrypoint', 'pull_policy', 'docker', 'kubernetes']);
        requireString(problems, `${id}.image.name`, name.name);
        if (name.entrypoint !== undefined && !(Array.isArray(name.entrypoint) && name.entrypoint.every((part) => typeof part === 'string'))) {
          problems.push(`${id}.image.entrypoint: a sequence of strings`);
        }
      }
    }
    if (fields.variables !== undefined) {
      for (const [name, value] of Object.entries(mappingAt(problems, `${id}.variables`, fields.variables) ?? {})) {
        if (!isScalar(value) && !(isMapping(value) && 'value' in value)) problems.push(`${id}.variables.${name}: a string or {value, description}`);
      }
    }
    if (fields.artifacts !== undefined) checkGitlabArtifacts(problems, `${id}.artifacts`, fields.artifacts);
  }
}

function checkGitlabArtifacts(problems: Problems, path: string, value: unknown): void {
  const artifacts = mappingAt(problems, path, value);
  if (!artifacts) return;
  onlyKeys(problems, path, artifacts, GITLAB_ARTIFACT_KEYS);
  if (artifacts.when !== undefined && !['on_success', 'on_failure', 'always'].includes(String(artifacts.when))) problems.push(`${path}.when: on_success, on_failure or always`);
  if (artifacts.paths !== undefined && !(Array.isArray(artifacts.paths) && artifacts.paths.every((item) => typeof item === 'string'))) problems.push(`${path}.paths: a sequence of paths`);
  if (artifacts.reports !== undefined) {
    for (const [name, files] of Object.entries(mappingAt(problems, `${path}.reports`, artifacts.reports) ?? {})) {
      if (typeof files !== 'string' && !(Array.isArray(files) && files.every((item) => typeof item === 'string'))) problems.push(`${path}.reports.${name}: a path or a sequence of paths`);
    }
  }
}

function checkKubernetes(problems: Problems, object: Mapping): void {
  requireString(problems, 'apiVersion', object.apiVersion);
  requireString(problems, 'kind', object.kind);
  const metadata = mappingAt(problems, 'metadata', object.metadata);
  if (metadata) requireString(problems, 'metadata.name', metadata.name);
  if (object.apiVersion === 'k6.io/v1alpha1' && object.kind === 'TestRun') {
    const spec = mappingAt(problems, 'spec', object.spec);
    if (!spec) return;
    onlyKeys(problems, 'spec', spec, ['parallelism', 'script', 'arguments', 'separate', 'runner', 'starter', 'initializer', 'cleanup', 'quiet', 'paused', 'token', 'testRunId']);
    if (spec.parallelism !== undefined && !(Number.isInteger(spec.parallelism) && (spec.parallelism as number) > 0)) problems.push('spec.parallelism: a positive integer');
    const script = mappingAt(problems, 'spec.script', spec.script);
    if (script && ['configMap', 'volumeClaim', 'localFile'].filter((source) => source in script).length !== 1) {
      problems.push('spec.script: exactly one of configMap, volumeClaim, localFile');
    }
  }
}
