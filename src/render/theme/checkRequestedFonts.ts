import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { SiteConfig } from '../config/SiteConfig.js';
import type { ReportCollector } from '../types.js';
import { bundledFamilyFor } from './bundledFontAliases.js';
import { requestedFontFamilies } from './requestedFontFamilies.js';

/** Generic families and fonts every reader's system has or substitutes, never reported. */
const SYSTEM = new Set([
  'serif',
  'sans-serif',
  'monospace',
  'cursive',
  'fantasy',
  'math',
  'emoji',
  'fangsong',
  'system-ui',
  'ui-sans-serif',
  'ui-serif',
  'ui-monospace',
  'ui-rounded',
  '-apple-system',
  'blinkmacsystemfont',
  'segoe ui',
  'roboto',
  'helvetica neue',
  'helvetica',
  'arial',
  'noto sans',
  'ubuntu',
  'cantarell',
  'oxygen',
  'georgia',
  'times new roman',
  'times',
  'courier new',
  'courier',
  'menlo',
  'monaco',
  'consolas',
  'sf mono',
  'sfmono-regular',
  'liberation mono',
  'verdana',
  'tahoma',
  'trebuchet ms',
  'apple color emoji',
  'segoe ui emoji',
  'segoe ui symbol',
  'noto color emoji',
  'inherit',
  'initial',
  'unset',
  'revert',
  'revert-layer',
]);

/**
 * Finds the font families the site asks for (its custom CSS as exported, and `fonts` in the
 * config) and reports each one the export cannot show: not bundled (or an alias of a bundled
 * family, such as "Inter"), not defined by a local `@font-face`, not a system font. Returns the
 * requested names, for the bundled families' aliases (bundledFontAliases.ts).
 */
export async function checkRequestedFonts(
  sourceDir: string,
  customCss: string[],
  rewritten: ReadonlyMap<string, string>,
  config: SiteConfig,
  fontUrl: (src: string) => string | null,
  report: ReportCollector,
): Promise<string[]> {
  const wanted = new Map<string, string>();
  const defined = new Set<string>();
  for (const rel of customCss) {
    const css = rewritten.get(rel) ?? (await readFile(join(sourceDir, rel), 'utf8'));
    const found = requestedFontFamilies(css);
    for (const family of found.wanted) if (!wanted.has(family.toLowerCase())) wanted.set(family.toLowerCase(), `${family}\0${rel}`);
    for (const family of found.defined) defined.add(family.toLowerCase());
  }
  for (const font of config.fonts) {
    const key = font.family.toLowerCase();
    if (font.source && fontUrl(font.source) !== null) defined.add(key);
    if (!wanted.has(key)) wanted.set(key, `${font.family}\0${config.configFile}`);
  }
  const requested: string[] = [];
  for (const [key, entry] of wanted) {
    const [family, where] = entry.split('\0');
    requested.push(family);
    if (SYSTEM.has(key) || defined.has(key) || bundledFamilyFor(family)) continue;
    report.warning(
      `font "${family}" (asked for in ${where}) is not in the export: neither bundled nor given as a local font file, so pages show a fallback font`,
    );
  }
  return requested;
}
