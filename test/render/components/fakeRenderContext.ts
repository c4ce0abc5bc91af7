import type { RenderContext } from '../../../src/render/types.js';

/** A RenderContext that records everything the component library reports or requests. */
export interface RecordingContext extends RenderContext {
  warnings: string[];
  externalUrls: { page: string; url: string }[];
  features: Set<string>;
  hrefs: string[];
  assetsAsked: string[];
}

/** A page context with predictable link/asset rewriting (`href:` / `asset:` prefixes) and per-page ids. */
export function fakeRenderContext(overrides: Partial<RenderContext> = {}): RecordingContext {
  const warnings: string[] = [];
  const externalUrls: { page: string; url: string }[] = [];
  const features = new Set<string>();
  const hrefs: string[] = [];
  const assetsAsked: string[] = [];
  let id = 0;
  return {
    pagePath: 'guides/page',
    sourceDir: '/nonexistent',
    iconLibrary: 'fontawesome',
    href: (t) => {
      hrefs.push(t);
      return `href:${t}`;
    },
    assetUrl: (s) => {
      assetsAsked.push(s);
      return `asset:${s}`;
    },
    report: {
      brokenLink() {},
      missingImage() {},
      unknownComponent() {},
      externalUrl: (page, url) => externalUrls.push({ page, url }),
      removedRemote() {},
      removedActive() {},
      warning: (m) => warnings.push(m),
    },
    assets: { use: (f) => features.add(f) },
    nextId: (prefix) => `${prefix}-${++id}`,
    forAgents: () => {},
    warnings,
    externalUrls,
    features,
    hrefs,
    assetsAsked,
    ...overrides,
  };
}
