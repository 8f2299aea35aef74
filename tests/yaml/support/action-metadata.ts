/**
 * A composite action's metadata (action.yml) against GitHub's rules ("Metadata syntax for GitHub Actions"):
 * name and description; each input with a description (id: a letter or _, then letters, digits, - or _);
 * each output with a description and, for a composite action, a value; `runs.using: composite` with its
 * steps; expressions only where the runner evaluates them, reading only contexts a composite action has,
 * inputs it declares and steps before the reader. One project rule on top: a `run` script never expands an
 * input (`${{ inputs.x }}` there is pasted into the script, a shell injection); inputs travel as `env`.
 */
import { expressionsIn, referencesOf } from './expressions.js';
import { isMapping, isScalar, mappingAt, onlyKeys, requireString, stringsIn, type Problems } from './shape.js';
import { checkSteps } from './steps.js';

const INPUT_ID = /^[A-Za-z_][A-Za-z0-9_-]*$/;
const BRANDING_COLORS = ['white', 'black', 'yellow', 'blue', 'green', 'orange', 'red', 'purple', 'gray-dark'];
/** Contexts a composite action's expressions may read (no `secrets`: the caller passes them as inputs or env). */
const COMPOSITE_CONTEXTS = ['github', 'inputs', 'steps', 'runner', 'env', 'job', 'strategy', 'matrix'];
/** Where the runner evaluates `${{ }}` in action metadata; anywhere else it stays literal text. */
const EXPRESSION_PLACES = [
  /^inputs\.[^.]+\.default$/,
  /^outputs\.[^.]+\.value$/,
  /^runs\.steps\[\d+\]\.(?:name|if|run|working-directory|continue-on-error)$/,
  /^runs\.steps\[\d+\]\.(?:env|with)\.[^.]+$/,
];

export function actionProblems(action: unknown): Problems {
  const problems: Problems = [];
  const root = mappingAt(problems, 'action.yml', action);
  if (!root) return problems;
  onlyKeys(problems, '(top)', root, ['name', 'author', 'description', 'inputs', 'outputs', 'runs', 'branding']);
  requireString(problems, 'name', root.name);
  requireString(problems, 'description', root.description);
  const inputs = root.inputs === undefined ? {} : (mappingAt(problems, 'inputs', root.inputs) ?? {});
  for (const [id, input] of Object.entries(inputs)) {
    if (!INPUT_ID.test(id)) problems.push(`inputs.${id}: not an input id (a letter or _, then letters, digits, - or _)`);
    const fields = mappingAt(problems, `inputs.${id}`, input);
    if (!fields) continue;
    onlyKeys(problems, `inputs.${id}`, fields, ['description', 'required', 'default', 'deprecationMessage']);
    requireString(problems, `inputs.${id}.description`, fields.description);
    if (fields.required !== undefined && typeof fields.required !== 'boolean') problems.push(`inputs.${id}.required: must be true or false`);
    if (fields.default !== undefined && !isScalar(fields.default)) problems.push(`inputs.${id}.default: must be a string`);
  }
  const outputs = root.outputs === undefined ? {} : (mappingAt(problems, 'outputs', root.outputs) ?? {});
  for (const [id, output] of Object.entries(outputs)) {
    const fields = mappingAt(problems, `outputs.${id}`, output);
    if (!fields) continue;
    onlyKeys(problems, `outputs.${id}`, fields, ['description', 'value']);
    requireString(problems, `outputs.${id}.description`, fields.description);
    requireString(problems, `outputs.${id}.value`, fields.value);
  }
  const runs = mappingAt(problems, 'runs', root.runs);
  const stepIds = runs ? checkRuns(problems, runs) : [];
  if (root.branding !== undefined) {
    const branding = mappingAt(problems, 'branding', root.branding);
    if (branding && branding.color !== undefined && !BRANDING_COLORS.includes(String(branding.color))) {
      problems.push(`branding.color: ${String(branding.color)} is not one of ${BRANDING_COLORS.join(', ')}`);
    }
  }
  checkExpressions(problems, root, Object.keys(inputs), stepIds);
  return problems;
}

function checkRuns(problems: Problems, runs: Record<string, unknown>): Array<string | undefined> {
  onlyKeys(problems, 'runs', runs, ['using', 'steps']);
  if (runs.using !== 'composite') problems.push(`runs.using: must be composite for this action, got ${JSON.stringify(runs.using)}`);
  return checkSteps(problems, 'runs.steps', runs.steps, 'composite');
}

function checkExpressions(problems: Problems, root: Record<string, unknown>, inputs: string[], stepIds: Array<string | undefined>): void {
  for (const { path, text } of stringsIn(root)) {
    const expressions = expressionsIn(text);
    if (expressions.length === 0) continue;
    if (!EXPRESSION_PLACES.some((place) => place.test(path))) {
      problems.push(`${path}: \`\${{ }}\` is not evaluated here (only in input defaults, output values and a step's name, if, run, env, with, working-directory)`);
      continue;
    }
    const stepIndex = /^runs\.steps\[(\d+)\]/.exec(path)?.[1];
    const earlier = stepIndex === undefined ? stepIds : stepIds.slice(0, Number(stepIndex));
    for (const reference of expressions.flatMap(referencesOf)) {
      const [context, name] = reference;
      if (!COMPOSITE_CONTEXTS.includes(context!)) problems.push(`${path}: \`${reference.join('.')}\`: a composite action has no ${context} context`);
      else if (context === 'inputs' && !inputs.includes(name ?? '')) problems.push(`${path}: \`${reference.join('.')}\` reads an input action.yml does not declare`);
      else if (context === 'steps' && !earlier.includes(name)) problems.push(`${path}: \`${reference.join('.')}\` reads a step that is not an earlier step's id`);
      if (context === 'inputs' && /\.run$/.test(path)) {
        problems.push(`${path}: \`${reference.join('.')}\` is pasted into the script (shell injection): pass it through the step's env`);
      }
    }
  }
}

/** The inputs' defaults, as the runner fills an input the caller left out. */
export function inputDefaults(action: Record<string, unknown>): Record<string, string> {
  const inputs = isMapping(action.inputs) ? action.inputs : {};
  return Object.fromEntries(
    Object.entries(inputs).map(([id, input]) => [id, isMapping(input) && input.default !== undefined ? String(input.default) : '']),
  );
}
