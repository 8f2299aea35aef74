/** xmllint (Debian: `apt-get install -y libxml2-utils`) for XSD validation and HTML DOM queries in tests. */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const JENKINS_XSD = fileURLToPath(new URL('../fixtures/reporters/jenkins-xunit-junit.xsd', import.meta.url));

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
