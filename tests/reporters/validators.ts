/**
 * Validators of the report files in tests: xmllint (Debian: `apt-get install -y libxml2-utils`) for the
 * Jenkins XSD and HTML DOM queries, ajv (a dependency, as in src/profile/) for schemas/report.schema.json,
 * and a reading of Markdown by CommonMark's fence and code-span rules (no Markdown parser is a dependency).
 */
import { execFileSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import Ajv2020Module from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

// Both packages are CommonJS with `exports.default`; under NodeNext the default import is module.exports.
const Ajv2020 = Ajv2020Module.default;
const addFormats = addFormatsModule.default;

/** A validator of report.json documents: the list of schema errors, empty when valid. */
export function reportValidator(): Promise<(value: unknown) => string[]> {
  return schemaValidator('report.schema.json');
}

/** A validator against one of schemas/ (e.g. load-stream.schema.json): the list of errors, empty when valid. */
export async function schemaValidator(file: string): Promise<(value: unknown) => string[]> {
  const schema = JSON.parse(await readFile(new URL(`../../schemas/${file}`, import.meta.url), 'utf8'));
  const ajv = new Ajv2020({ allErrors: true, strict: true, strictRequired: false });
  addFormats(ajv, ['date-time']);
  const validate = ajv.compile(schema);
  return (value) => (validate(value) ? [] : (validate.errors ?? []).map((error) => `${error.instancePath} ${error.message}`));
}

export const JENKINS_XSD = fileURLToPath(new URL('../fixtures/reporters/jenkins-xunit-junit.xsd', import.meta.url));

/** Why the xmllint checks skip where it is missing (.ci/run installs it and declares it: there, they fail). */
export const XMLLINT_MISSING = 'no xmllint on PATH (Debian package libxml2-utils)';

let available: boolean | undefined;

export function hasXmllint(): boolean {
  if (available === undefined) {
    try {
      execFileSync('xmllint', ['--version'], { stdio: 'ignore' });
      available = true;
    } catch {
      available = false;
    }
  }
  return available;
}

/** Runs xmllint; returns stdout, or throws with its stderr (the validation errors) in the message. */
export function xmllint(args: string[]): string {
  try {
    return execFileSync('xmllint', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 30_000 });
  } catch (error) {
    const failed = error as { stderr?: string; stdout?: string };
    throw new Error(`xmllint ${args.join(' ')} failed:\n${failed.stderr ?? ''}${failed.stdout ?? ''}`);
  }
}

/** Markdown outside fenced blocks and code spans (CommonMark's rules for both); undefined when a fence is left open. */
export function markdownOutsideCode(md: string): string | undefined {
  const outside: string[] = [];
  let fence: string | undefined;
  for (const line of md.split('\n')) {
    if (fence !== undefined) {
      // A closing fence may be indented up to three spaces (CommonMark 4.5).
      if (new RegExp(`^ {0,3}${fence}\`*\\s*$`).test(line)) fence = undefined;
      continue;
    }
    const open = /^ {0,3}(`{3,})[^`]*$/.exec(line);
    if (open) {
      fence = open[1];
      continue;
    }
    let text = '';
    let i = 0;
    while (i < line.length) {
      // A backslash-escaped punctuation mark is a literal character (and never opens a code span).
      if (line[i] === '\\' && /[!-/:-@[-`{-~]/.test(line[i + 1] ?? '')) {
        i += 2;
        continue;
      }
      const run = /^`+/.exec(line.slice(i));
      if (!run) {
        text += line[i];
        i += 1;
        continue;
      }
      const ticks = run[0];
      const close = new RegExp(`(?<!\`)${ticks}(?!\`)`, 'g');
      close.lastIndex = i + ticks.length;
      const end = close.exec(line);
      if (!end) {
        text += ticks;
        i += ticks.length;
      } else {
        i = end.index + ticks.length;
      }
    }
    outside.push(text);
  }
  return fence === undefined ? outside.join('\n') : undefined;
}
