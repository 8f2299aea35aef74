/** The runs faults: one file each; every export of this module is a fault definition. */
export * from './inactive-answered-200.js';
export * from './run-before-validation.js';
export * from './run-not-started.js';
export * from './runner-context-annotated.js';
export * from './runner-context-ascii-only.js';
export * from './runner-context-latin1.js';
export * from './runner-context-nul-stripped.js';
export * from './runner-context-six-digits.js';
export * from './runner-context-utf8mb3.js';
export * from './runner-runs-twice.js';
export * from './trigger-toggle-ignored.js';
