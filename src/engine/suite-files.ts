/**
 * Where the suite files are, and in which form. The build compiles suites/ with the rest of the package
 * (dist/suites/*.suite.js next to dist/src/): an engine that runs from dist/ runs those, imported by Node
 * itself, so nothing is transformed at run time. An engine that runs from its TypeScript sources (the
 * project's own tests, under vitest) runs suites/*.suite.ts through vite's module runner, so a suite edit
 * is seen without a build and the two never mix versions.
 */
import { existsSync, readdirSync } from 'node:fs';
import { basename, join, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { HarnessError } from '../errors.js';
import { packageRoot } from '../package.js';
import type { SuiteToLoad } from './check-meta.js';

export type SuiteForm = 'compiled' | 'source';

export interface SuiteFiles {
  form: SuiteForm;
  /** Suite file by group (file name without `.suite.js` / `.suite.ts`), absolute paths. */
  byGroup: Map<string, string>;
  /** The run's one vitest test file, which imports the selected suite files (suites/support/run-entry). */
  entry: string;
  /** The suites' own scheduler (suites/support/scheduler), which the engine runs the checks with. */
  scheduler: string;
}

const SUFFIX: Record<SuiteForm, string> = { compiled: '.suite.js', source: '.suite.ts' };
const ENTRY: Record<SuiteForm, string> = { compiled: 'run-entry.js', source: 'run-entry.ts' };
const SCHEDULER: Record<SuiteForm, string> = { compiled: 'scheduler.js', source: 'scheduler.ts' };

/** `compiled` when this module itself was loaded from the build (dist/src/engine/), else `source`. */
export function engineForm(moduleUrl: string = import.meta.url): SuiteForm {
  const path = fileURLToPath(moduleUrl);
  return path.includes(`${sep}dist${sep}src${sep}engine${sep}`) ? 'compiled' : 'source';
}

function suiteDir(root: string, form: SuiteForm): string {
  return form === 'compiled' ? join(root, 'dist', 'suites') : join(root, 'suites');
}

/** The file's group, whichever form it has; the name itself when it is no suite file. */
export function groupOfModule(moduleId: string): string {
  const name = basename(moduleId);
  for (const suffix of Object.values(SUFFIX)) if (name.endsWith(suffix)) return name.slice(0, -suffix.length);
  return name;
}

/**
 * Suite files by group, searched recursively under suites/ (or dist/suites/): any file list, so suites
 * added later need no registration here. A compiled engine without compiled suites is a broken install.
 */
export function discoverSuites(root = packageRoot(), form: SuiteForm = engineForm()): SuiteFiles {
  const dir = suiteDir(root, form);
  const byGroup = new Map<string, string>();
  const entry = join(dir, 'support', ENTRY[form]);
  const scheduler = join(dir, 'support', SCHEDULER[form]);
  if (!existsSync(dir)) {
    if (form === 'compiled') {
      throw new HarnessError('INTERNAL', `the compiled suites are missing (${dir})`, { hint: 'run `npm run build` in the package folder' });
    }
    return { form, byGroup, entry, scheduler };
  }
  const entries = readdirSync(dir, { recursive: true }).map(String).sort();
  for (const entry of entries) {
    if (!entry.endsWith(SUFFIX[form]) || entry.split(/[\\/]/).includes('node_modules')) continue;
    const group = groupOfModule(entry);
    if (!byGroup.has(group)) byGroup.set(group, join(dir, entry));
  }
  return { form, byGroup, entry, scheduler };
}

/** The suite files a run imports, with the checks selected from each (the entry's `acSuites`). */
export function suitesToLoad(files: SuiteFiles, selection: { runnableGroups(): string[]; idsOf(group: string): string[] }): SuiteToLoad[] {
  return selection.runnableGroups().map((group) => ({ group, url: pathToFileURL(files.byGroup.get(group)!).href, ids: selection.idsOf(group) }));
}
