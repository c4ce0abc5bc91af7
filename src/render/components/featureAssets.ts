import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

import { assetDir } from '../theme/prepareThemeAssets.js';

const require = createRequire(import.meta.url);

/** One file to copy into the bundle. */
export interface FeatureAsset {
  /** Absolute path on disk. */
  source: string;
  /** Bundle-relative path under `_assets/`. */
  target: string;
}

/** KaTeX's stylesheet plus every font file it points at, read from the CSS so none is missed. */
function katexAssets(): FeatureAsset[] {
  const css = require.resolve('katex/dist/katex.min.css');
  const dir = path.dirname(css);
  const fonts = new Set<string>();
  for (const m of readFileSync(css, 'utf8').matchAll(/url\(\s*['"]?([^'")]+)['"]?\s*\)/g)) {
    // Only relative files inside the package; the bundle never points at another origin.
    if (!/^[a-z]+:/i.test(m[1]) && !m[1].includes('..')) fonts.add(m[1]);
  }
  return [
    { source: css, target: '_assets/katex/katex.min.css' },
    ...[...fonts].sort().map((f) => ({ source: path.join(dir, f), target: path.posix.join('_assets/katex', f) })),
  ];
}

const cache = new Map<string, FeatureAsset[]>();

/** Files a runtime feature needs in the bundle; the pipeline copies them only for pages that used the feature. */
export function featureAssets(feature: 'mermaid' | 'katex' | 'openapi' | 'islands'): FeatureAsset[] {
  const hit = cache.get(feature);
  if (hit) return hit;
  let assets: FeatureAsset[];
  if (feature === 'mermaid')
    assets = [{ source: require.resolve('mermaid/dist/mermaid.min.js'), target: '_assets/mermaid/mermaid.min.js' }];
  else if (feature === 'katex') assets = katexAssets();
  // Docs components that need a browser: Preact with its hooks (React's API, a tenth of its size),
  // taken from the installed package, then the runtime that hydrates the page's islands.
  else if (feature === 'islands')
    assets = [
      // (The package's exports map names no UMD file; its entries sit beside them.)
      { source: path.join(path.dirname(require.resolve('preact')), 'preact.min.umd.js'), target: '_assets/islands/preact.min.js' },
      { source: path.join(path.dirname(require.resolve('preact/hooks')), 'hooks.umd.js'), target: '_assets/islands/hooks.js' },
      { source: path.join(assetDir('../islands/assets/', import.meta.url) ?? '', 'islands.js'), target: '_assets/islands/islands.js' },
    ];
  // OpenAPI pages are static markup styled by components.css, plus the "Try it" playground's script.
  else
    assets = [
      {
        source: path.join(assetDir('../openapi/assets/', import.meta.url) ?? '', 'playground.js'),
        target: '_assets/openapi/playground.js',
      },
    ];
  cache.set(feature, assets);
  return assets;
}
