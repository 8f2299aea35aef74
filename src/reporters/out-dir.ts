/**
 * `run --out DIR` reused: the report files an earlier run left there are removed before this run starts,
 * so an old `junit.xml` or `summary.md` saying "conformant" can never sit beside a new failing
 * `report.json`. Only the names a run writes are touched (below); any other file in the folder stays.
 */
import { rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { HTML_REPORT_FILE, JSON_REPORT_FILE, JUNIT_REPORT_FILE, MARKDOWN_REPORT_FILE, REPRODUCTIONS_DIR } from './file-names.js';

/**
 * What a run writes into --out: the reports, the container's log (`--image`), and `--attest`'s bundle and
 * the profile it hashed (src/attest/index.ts names them): an old attestation must not vouch beside a new report.
 */
export const RUN_OUTPUTS: readonly string[] = [
  JSON_REPORT_FILE,
  JUNIT_REPORT_FILE,
  HTML_REPORT_FILE,
  MARKDOWN_REPORT_FILE,
  'container.log',
  REPRODUCTIONS_DIR,
  'attestation.sigstore.json',
  'attestation.profile.json',
];

/** Removes what an earlier run wrote into `outDir`; returns the names removed. */
export async function removePreviousOutputs(outDir: string): Promise<string[]> {
  const removed: string[] = [];
  for (const name of RUN_OUTPUTS) {
    const path = join(outDir, name);
    const found = await stat(path).catch(() => undefined);
    if (!found) continue;
    await rm(path, { recursive: true, force: true });
    removed.push(found.isDirectory() ? `${name}/` : name);
  }
  return removed;
}
