/**
 * Contracts shared by the renderer's parts. The pipeline (config, navigation, MDX, theme,
 * bundle layout) and the component library (components, code, math, icons, OpenAPI) meet
 * only through these types, so either side can change its internals freely.
 */
import type { PageIslands } from './islands/PageIslands.js';
import type { Element, ElementContent, Root } from 'hast';
import type { RemovedActive, RemovedRemote } from './report/BuildReport.js';
import type { InterfaceText } from './theme/interfaceTranslations.js';

/** One problem found while rendering; everything here ends up in `_enclave/report.json`. */
export interface ReportCollector {
  /** `reason` says what is missing (the page, the file, the `#anchor`), for whoever fixes the source. */
  brokenLink(page: string, href: string, reason: string): void;
  missingImage(page: string, src: string): void;
  unknownComponent(name: string): void;
  externalUrl(page: string, url: string): void;
  /** A remote load removed (or swapped for a local copy) so the bundle stays offline. */
  removedRemote(entry: RemovedRemote): void;
  /** A script, script URL or remote-posting form taken out of a page. */
  removedActive(entry: RemovedActive): void;
  warning(message: string, page?: string): void;
}

/** Static files a page needs; the pipeline copies each requested asset into the bundle once. */
export interface AssetRequests {
  /** Mark a named runtime feature as used by the current page (e.g. 'mermaid', 'katex'). */
  use(feature: 'mermaid' | 'katex' | 'openapi' | 'islands'): void;
}

/** What a component or code renderer knows about the page being rendered. */
export interface RenderContext {
  /** Site-relative page path without extension, e.g. `guides/start` (home is `index`). */
  pagePath: string;
  /** Absolute path of the docs source root. */
  sourceDir: string;
  /**
   * The admin chose to ship pages that lost content (an `{expression}` that does not parse) with
   * a warning; otherwise such a page fails, so the loss is listed and deploy refuses the bundle.
   */
  shipsWarnings?: boolean;
  /** Turns a docs link (`/guides/x`, `../x`, `#a`, `https://…`) into the href to emit
   *  (relative, `.html`), recording broken and external links. */
  href(target: string): string;
  /** Turns an image/asset reference into a relative URL, recording missing and external images. */
  assetUrl(src: string): string;
  report: ReportCollector;
  assets: AssetRequests;
  /** Icon library named by the docs config (`fontawesome` default, `lucide`, `tabler`). */
  iconLibrary: string;
  /** Stable id source for generated ids on this page (tabs, accordions, …). */
  nextId(prefix: string): string;
  /** Content for agents only (`Visibility for="agents"`): kept out of the page, indexed in the search index's agent channel. */
  forAgents(content: ElementContent[]): void;
  /**
   * Records that the page carries a "Try it" form whose spec names these servers: the page's
   * manifest entry lists their origins, the only ones its policy lets it reach (see renderSite).
   */
  tryIt?(servers: readonly string[]): void;
  /** The interface text in the page's language (API labels); English when absent. */
  text?: InterfaceText;
  /** The page's client-side islands (docs components that need a browser); none when absent. */
  islands?: PageIslands;
}

/** Props after JSX attribute evaluation: literals, objects, arrays, and hast for JSX-valued props. */
export type ComponentProps = Record<string, unknown>;

/** Renders one built-in component. `children` is already rendered hast. */
export type ComponentRenderer = (
  props: ComponentProps,
  children: ElementContent[],
  ctx: RenderContext,
) => ElementContent | ElementContent[];

/** A fenced code block as it appears in the source. */
export interface CodeBlockInput {
  lang: string | null;
  /** Everything after the language on the fence line, e.g. `title.ts {1,3-4} lines`. */
  meta: string | null;
  value: string;
}

export type { Element, ElementContent, Root };
