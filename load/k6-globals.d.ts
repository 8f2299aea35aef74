// Globals k6 provides that @types/k6 leaves out (k6 has a console; the ES2017 lib does not declare one).
declare const console: {
  log(...values: unknown[]): void;
  warn(...values: unknown[]): void;
  error(...values: unknown[]): void;
};
