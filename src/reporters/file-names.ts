/**
 * The names a run's reporters write into --out, without the reporters: `reporters/out-dir.ts` clears them
 * and `run --attest` names report.json before any reporter module loads (a one-check run's start-up loads
 * only the reporters it uses, after the target started).
 */
export const JSON_REPORT_FILE = 'report.json';
export const JUNIT_REPORT_FILE = 'junit.xml';
export const HTML_REPORT_FILE = 'report.html';
export const MARKDOWN_REPORT_FILE = 'summary.md';
export const REPRODUCTIONS_DIR = 'reproductions';
