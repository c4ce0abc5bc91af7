import type { InterfaceText } from '../theme/interfaceTranslations.js';
import type { ElementContent } from 'hast';
import { findLocalCopy } from '../offline/findLocalCopy.js';
import type { RemovedRemote } from '../report/BuildReport.js';
import type { RenderContext, ReportCollector } from '../types.js';
import { docsPath, relativeHref, resolveLink } from './resolveLink.js';
import { pageFile, type SiteIndex } from './SiteIndex.js';

/** A link to check once every page's ids are known: `href` as written, `emitted` as output. */
export interface AnchorCheck {
  page: string;
  target: string;
  hash: string;
  href: string;
  emitted: string;
}

/** A RenderContext plus what the pipeline collects while the page renders. */
export interface PageContext extends RenderContext {
  features: Set<'mermaid' | 'katex' | 'openapi' | 'islands'>;
  anchorChecks: AnchorCheck[];
  /** True once anything on the page fell back (unknown component, unevaluable expression, …). */
  fellBack(): boolean;
  /** True for an href this context already produced (components resolve links themselves). */
  emitted(href: string): boolean;
  /**
   * What to load instead of a remote media URL: the relative href of the source's own copy, the
   * URL itself when the export keeps remote loads, or null for a placeholder. Reports either way.
   */
  offlineMedia(url: string, kind: RemovedRemote['kind']): string | null;
  /** True when the export keeps remote loads (`keepRemoteAssets`). */
  keepsRemote: boolean;
  /** What the page handed to `forAgents`, in document order. */
  agentContent: ElementContent[];
  /** True when the site allows scripts written in pages (`<script>`, `on…` attributes, `javascript:` URLs). */
  allowsAuthorScripts: boolean;
  /** The servers of the page's "Try it" forms, or null when it has none. */
  tryItServers: string[] | null;
}

/** Creates the per-page context that components and the pipeline use to emit relative links and report problems. */
// size: a factory: most lines are the small closures it returns, which share its private state
export function createPageContext(opts: {
  pagePath: string;
  sourceDir: string;
  site: SiteIndex;
  report: ReportCollector;
  iconLibrary: string;
  /** Leave remote images, frames and media as they are (the export's `keepRemoteAssets`). */
  keepRemote?: boolean;
  /** Keep scripts written in pages (the site's `authorScripts`). */
  allowAuthorScripts?: boolean;
  /** Lost content is a warning, not a failed page (the export's `shipWarnings`). */
  shipWarnings?: boolean;
  /** The interface text in the page's language (see RenderContext.text). */
  text?: InterfaceText;
}): PageContext {
  const { pagePath, site, report } = opts;
  let fell = false;
  let counter = 0;
  const features = new Set<'mermaid' | 'katex' | 'openapi' | 'islands'>();
  const anchorChecks: AnchorCheck[] = [];
  const agentContent: ElementContent[] = [];
  const outputs = new Set<string>();
  const pageReport: ReportCollector = {
    brokenLink: (page, href, reason) => report.brokenLink(page, href, reason),
    missingImage: (page, src) => report.missingImage(page, src),
    externalUrl: (page, url) => report.externalUrl(page, url),
    removedRemote: (entry) => report.removedRemote(entry),
    removedActive: (entry) => report.removedActive(entry),
    unknownComponent(name) {
      fell = true;
      report.unknownComponent(name);
    },
    warning(message, page) {
      fell = true;
      report.warning(message, page ?? pagePath);
    },
  };
  let tryItServers: string[] | null = null;
  return {
    pagePath,
    text: opts.text,
    sourceDir: opts.sourceDir,
    iconLibrary: opts.iconLibrary,
    report: pageReport,
    features,
    anchorChecks,
    fellBack: () => fell,
    emitted: (href) => outputs.has(href),
    keepsRemote: opts.keepRemote ?? false,
    shipsWarnings: opts.shipWarnings ?? false,
    offlineMedia(url, kind) {
      report.externalUrl(pagePath, url);
      if (opts.keepRemote) return url;
      const local = findLocalCopy(url, site.files);
      report.removedRemote(
        local ? { page: pagePath, kind, url, action: 'local copy', local } : { page: pagePath, kind, url, action: 'placeholder' },
      );
      return local ? relativeHref(pageFile(pagePath), local).split('/').map(encodeURIComponent).join('/') : null;
    },
    assets: { use: (feature) => void features.add(feature) },
    nextId: (prefix) => `${prefix}-${++counter}`,
    agentContent,
    forAgents: (content) => void agentContent.push(...content),
    allowsAuthorScripts: opts.allowAuthorScripts ?? false,
    get tryItServers() {
      return tryItServers;
    },
    tryIt(servers) {
      tryItServers = [...new Set([...(tryItServers ?? []), ...servers])];
    },
    href(target) {
      const r = resolveLink(target, pagePath, site);
      if (r.kind === 'broken') report.brokenLink(pagePath, target, r.reason);
      if ((r.kind === 'page' || r.kind === 'anchor') && r.hash && r.page)
        anchorChecks.push({ page: pagePath, target: r.page, hash: r.hash, href: target, emitted: r.href });
      outputs.add(r.href);
      return r.href;
    },
    assetUrl(src) {
      const s = src.trim();
      if (/^(?:https?:)?\/\//i.test(s)) {
        report.externalUrl(pagePath, s);
        return s;
      }
      if (/^[a-z][a-z0-9+.-]*:/i.test(s) || s === '' || s.startsWith('#')) return s;
      const pathPart = s.replace(/[?#].*$/, '');
      let decoded = pathPart;
      try {
        decoded = decodeURIComponent(pathPart);
      } catch {
        /* keep as written */
      }
      const normal = docsPath(decoded, pagePath);
      if (normal.startsWith('..') || !site.files.has(normal)) report.missingImage(pagePath, src);
      if (normal.startsWith('..')) return s;
      return relativeHref(pageFile(pagePath), normal).split('/').map(encodeURIComponent).join('/') + s.slice(pathPart.length);
    },
  };
}
