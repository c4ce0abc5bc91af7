/** Where a docs module's top-level bindings came from: its file and its JavaScript text. */
export interface ModuleSource {
  /** Docs-relative path of the page or snippet. */
  file: string;
  /** The module's JavaScript: a `.js`/`.jsx` file's text, or an MDX file's import/export blocks. */
  source: string;
  /** The module's top-level bindings and its exports, as the static evaluator built them. */
  scope: ReadonlyMap<string, unknown>;
  exports: ReadonlyMap<string, unknown>;
}

// Keyed by the module's scope, which every function defined at its top level keeps: a component
// found on a page leads back to the module whose code the browser must run.
const sources = new WeakMap<object, ModuleSource>();

/** Records the source of a module whose top-level scope is `source.scope` (see evaluateModule). */
export function recordModuleSource(source: ModuleSource): void {
  sources.set(source.scope, source);
}

/** The module a function was defined at the top level of, if it was recorded. */
export function moduleSourceOf(scope: object): ModuleSource | undefined {
  return sources.get(scope);
}
