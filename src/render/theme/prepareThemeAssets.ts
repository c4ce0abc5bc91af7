import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { SiteConfig } from '../config/SiteConfig.js';
import type { BundleSink } from '../../bundle/BundleSink.js';
import { writeHashedAsset } from '../output/writeHashedAsset.js';
import { buildSiteCss } from './buildSiteCss.js';
import { bundledFontAliases } from './bundledFontAliases.js';
import { bundledInterFont } from './bundledInterFont.js';

/** Bundle-relative paths of the assets every page links. */
export interface ThemeAssets {
  styles: string[];
  headScripts: string[];
  bodyScripts: string[];
  themeScript: string;
}

/**
 * Finds a folder of static assets next to this module. When running compiled code from `dist/`
 * the non-TypeScript files live only under `src/`, so that location is tried second.
 */
export function assetDir(relative: string, base: string = import.meta.url): string | null {
  const primary = fileURLToPath(new URL(relative, base));
  if (existsSync(primary)) return primary;
  const fromSrc = primary.replace(/([\\/])dist([\\/])/, '$1src$2');
  return existsSync(fromSrc) ? fromSrc : null;
}

/**
 * Writes the bundled Inter font, the theme, the site's colour stylesheet, the component library's assets and the
 * feedback widget's assets into `_assets/` with content-hashed names (other files in those
 * folders, such as fonts a stylesheet references, keep their names). The files are small and
 * read synchronously; their writes are issued together and awaited once: awaited one by one,
 * each a round trip through the zip thread, they held up the first page.
 */
export async function prepareThemeAssets(
  out: BundleSink,
  config: SiteConfig,
  fontUrl: (src: string) => string | null,
  requestedFamilies: Iterable<string> = [],
): Promise<ThemeAssets> {
  const themeDir = assetDir('./assets/');
  if (!themeDir) throw new Error('theme assets folder is missing from the installation');
  const writes: Promise<unknown>[] = [];
  const hashed = (base: string, ext: string, data: string | Buffer) => {
    const { rel, written } = writeHashedAsset(out, base, ext, data);
    writes.push(written);
    return rel;
  };
  const read = (name: string) => readFileSync(join(themeDir, name));
  const inter = bundledInterFont();
  for (const f of inter.files) writes.push(out.copy(f.source, f.target));
  const assets: ThemeAssets = {
    headScripts: [hashed('theme-init', '.js', read('theme-init.js'))],
    styles: [
      hashed('inter', '.css', withAliases(inter.css, bundledFontAliases(requestedFamilies, inter.css))),
      hashed('theme', '.css', read('theme.css')),
      hashed('variants', '.css', read('variants.css')),
      hashed('site', '.css', buildSiteCss(config, fontUrl)),
    ],
    bodyScripts: [],
    themeScript: hashed('theme', '.js', read('theme.js')),
  };
  for (const dir of [assetDir('../components/assets/'), assetDir('./feedback/')]) {
    if (!dir) continue;
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      if (!entry.isFile() || entry.name.startsWith('.') || /\.(?:ts|tsx|md)$/.test(entry.name)) continue;
      const m = /^(.*?)(\.css|\.js)$/.exec(entry.name);
      if (m) (m[2] === '.css' ? assets.styles : assets.bodyScripts).push(hashed(m[1], m[2], readFileSync(join(dir, entry.name))));
      else writes.push(out.copy(join(dir, entry.name), `_assets/${entry.name}`));
    }
  }
  await Promise.all(writes);
  return assets;
}

const withAliases = (css: string, aliases: string) =>
  aliases ? `${css}\n/* The same faces under the names the site asks for */\n${aliases}\n` : css;

/** Copies a feature's files (KaTeX, Mermaid, …) to their bundle targets. */
export async function copyFeatureFiles(out: BundleSink, files: { source: string; target: string }[]): Promise<void> {
  for (const f of files) await out.copy(f.source, f.target);
}
