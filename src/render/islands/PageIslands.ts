import type { Element, ElementContent } from 'hast';
import type * as ES from 'estree-jsx';

/** A component defined in the docs, as the static evaluator holds it (see StaticFunction). */
export interface DocsFunction {
  readonly body: ES.Node;
  readonly scope: object;
}

/** Wraps a component's static render (and its rendered children) in its island element. */
export type IslandWrap = (staticOut: ElementContent[], children: ElementContent[]) => Element;

/** One page's islands: wraps components that need a browser and gives the script that defines them. */
export interface PageIslands {
  /**
   * For a docs-defined component that needs a browser (hooks, event handlers, browser globals):
   * a function that wraps its static render in an island, or null when it is not one. When it
   * needs a browser but cannot run there, `warn` says why and null is returned.
   */
  prepare(name: string, fn: DocsFunction, props: Record<string, unknown>, warn: (m: string) => void): IslandWrap | null;
  /** The page's inline script registering its island modules, or null when it has none. */
  script(): string | null;
}
