import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const require = createRequire(import.meta.url);

/** The default font's stylesheet and its files, for the bundle's `_assets/`. */
export interface BundledFont {
  /** `@font-face` rules pointing at `inter/<file>` (relative to the stylesheet in `_assets/`). */
  css: string;
  files: { source: string; target: string }[];
}

let cached: BundledFont | null = null;

/**
 * Inter (variable weight, upright) from @fontsource-variable/inter, as Mintlify's default theme
 * uses it, shipped inside the bundle so no page asks a font CDN. Its `unicode-range` subsets mean
 * a reader's browser fetches only the scripts a page contains (latin is 48 KB).
 */
export function bundledInterFont(): BundledFont {
  if (cached) return cached;
  const cssPath = require.resolve('@fontsource-variable/inter/wght.css');
  const dir = path.dirname(cssPath);
  const files: BundledFont['files'] = [];
  const css = readFileSync(cssPath, 'utf8').replace(/url\(\s*['"]?\.\/files\/([^'")]+)['"]?\s*\)/g, (_m, name: string) => {
    files.push({ source: path.join(dir, 'files', name), target: `_assets/inter/${name}` });
    return `url(inter/${name})`;
  });
  cached = { css, files };
  return cached;
}
