/**
 * A step, as GitHub reads one in a workflow job or a composite action (docs.github.com, "Workflow syntax"
 * and "Metadata syntax for GitHub Actions"): either `run` (a composite action's run step also needs
 * `shell`) or `uses`, `with` only beside `uses`, ids unique and made of letters, digits, `-` and `_`.
 */
import { isMapping, isScalar, onlyKeys, type Mapping, type Problems } from './shape.js';

export type StepHost = 'workflow' | 'composite';

const STEP_KEYS: Record<StepHost, readonly string[]> = {
  workflow: ['id', 'if', 'name', 'uses', 'run', 'shell', 'with', 'env', 'continue-on-error', 'timeout-minutes', 'working-directory'],
  composite: ['id', 'if', 'name', 'uses', 'run', 'shell', 'with', 'env', 'continue-on-error', 'working-directory'],
};
const ID = /^[A-Za-z_][A-Za-z0-9_-]*$/;
/** `owner/repo@ref`, `owner/repo/path@ref`, a local `./path`, or `docker://image`. */
const USES = /^(?:[A-Za-z0-9_.<>-]+\/[A-Za-z0-9_.<>-]+(?:\/[^@\s]+)?@[^\s]+|\.\/?[^\s]*|docker:\/\/\S+)$/;

/** The steps' problems; returns the step ids in order (undefined for a step without one). */
export function checkSteps(problems: Problems, path: string, steps: unknown, host: StepHost): Array<string | undefined> {
  if (!Array.isArray(steps) || steps.length === 0) {
    problems.push(`${path}: must be a non-empty sequence of steps`);
    return [];
  }
  const ids: Array<string | undefined> = [];
  steps.forEach((step: unknown, index) => {
    const at = `${path}[${index}]`;
    if (!isMapping(step)) {
      problems.push(`${at}: a step must be a mapping`);
      ids.push(undefined);
      return;
    }
    onlyKeys(problems, at, step, STEP_KEYS[host]);
    checkStep(problems, at, step, host);
    const id = step.id;
    if (id !== undefined) {
      if (typeof id !== 'string' || !ID.test(id)) problems.push(`${at}.id: ${JSON.stringify(id)} is not an id (a letter or _, then letters, digits, - or _)`);
      else if (ids.includes(id)) problems.push(`${at}.id: ${id} is used by an earlier step`);
    }
    ids.push(typeof id === 'string' ? id : undefined);
  });
  return ids;
}

function checkStep(problems: Problems, at: string, step: Mapping, host: StepHost): void {
  const hasRun = step.run !== undefined;
  const hasUses = step.uses !== undefined;
  if (hasRun === hasUses) problems.push(`${at}: a step has either \`run\` or \`uses\`, ${hasRun ? 'not both' : 'and this has neither'}`);
  if (hasRun) {
    if (typeof step.run !== 'string' || step.run.trim() === '') problems.push(`${at}.run: must be a non-empty string`);
    if (host === 'composite' && typeof step.shell !== 'string') problems.push(`${at}.shell: a composite action's run step must name its shell`);
    if (step.with !== undefined) problems.push(`${at}.with: only a \`uses\` step takes inputs`);
  }
  if (hasUses) {
    if (typeof step.uses !== 'string' || !USES.test(step.uses)) problems.push(`${at}.uses: ${JSON.stringify(step.uses)} is not owner/repo@ref, ./path or docker://image`);
    if (step.shell !== undefined) problems.push(`${at}.shell: only a \`run\` step has a shell`);
  }
  for (const key of ['env', 'with'] as const) {
    const map = step[key];
    if (map === undefined) continue;
    if (!isMapping(map)) {
      problems.push(`${at}.${key}: must be a mapping`);
      continue;
    }
    for (const [name, value] of Object.entries(map)) {
      if (!isScalar(value)) problems.push(`${at}.${key}.${name}: must be a string, number or boolean, got ${value === null ? 'an empty value' : 'a collection'}`);
    }
  }
}
