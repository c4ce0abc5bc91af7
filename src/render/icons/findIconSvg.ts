import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fromHtml } from 'hast-util-from-html';
import type { Element } from '../types.js';
import { fontAwesomeAlias } from './fontAwesomeAliases.js';

const require = createRequire(import.meta.url);

/** Package roots resolved once; a missing package just means its icons are never found. */
function packageRoot(name: string): string | undefined {
  try {
    return path.dirname(require.resolve(`${name}/package.json`));
  } catch {
    return undefined;
  }
}
const FA_ROOT = packageRoot('@fortawesome/fontawesome-free');
const LUCIDE_ROOT = packageRoot('lucide-static');

/** Parsed icons by file path; each icon is read from disk once per process. */
const parsed = new Map<string, Element | null>();

/** Reads and parses one SVG file, or null when it does not exist. */
function readSvg(file: string): Element | null {
  const cached = parsed.get(file);
  if (cached !== undefined) return cached;
  let svg: Element | null = null;
  try {
    const tree = fromHtml(readFileSync(file, 'utf8'), { fragment: true });
    const found = tree.children.find((n): n is Element => n.type === 'element' && n.tagName === 'svg');
    if (found) {
      // Licence comments and whitespace text would only bloat every page that uses the icon.
      found.children = found.children.filter((c) => c.type === 'element');
      svg = found;
    }
  } catch {
    svg = null;
  }
  parsed.set(file, svg);
  return svg;
}

/** Icon names are file names: refuse anything that could walk out of the icon folder. */
function safeName(name: string): string | undefined {
  const n = name.trim().toLowerCase();
  return /^[a-z0-9][a-z0-9-]*$/.test(n) ? n : undefined;
}

/** Font Awesome styles to try for an `iconType`; the free set has only solid, regular and brands. */
function fontAwesomeStyles(iconType: string | undefined): string[] {
  if (iconType === 'regular' || iconType === 'light' || iconType === 'thin') return ['regular', 'solid', 'brands'];
  if (iconType === 'brands') return ['brands', 'solid', 'regular'];
  return ['solid', 'brands', 'regular'];
}

function findFontAwesome(name: string, iconType: string | undefined): Element | null {
  if (!FA_ROOT) return null;
  const lookup = (n: string): Element | null => {
    for (const style of fontAwesomeStyles(iconType)) {
      const svg = readSvg(path.join(FA_ROOT, 'svgs', style, `${n}.svg`));
      if (svg) return svg;
    }
    return null;
  };
  const direct = lookup(name);
  if (direct) return direct;
  const alias = fontAwesomeAlias(name, path.join(FA_ROOT, 'metadata', 'icons.yml'));
  return alias ? lookup(alias) : null;
}

function findLucide(name: string): Element | null {
  return LUCIDE_ROOT ? readSvg(path.join(LUCIDE_ROOT, 'icons', `${name}.svg`)) : null;
}

type FoundIcon = { svg: Element; library: 'fontawesome' | 'lucide' };

/**
 * Lookups by library, type and name. The same few icons appear on every page (each callout has
 * one), and a lookup builds and tries up to six file paths: remembering the result saves most
 * of `renderIcon`'s time.
 */
const lookups = new Map<string, FoundIcon | null>();
const MAX_LOOKUPS = 10_000;

/** The parsed SVG for an icon name in a library (`fontawesome`, `lucide`, `tabler`), or null if unknown. */
export function findIconSvg(name: string, library: string, iconType?: string): FoundIcon | null {
  const key = `${library}\0${iconType ?? ''}\0${name}`;
  let found = lookups.get(key);
  if (found === undefined) {
    found = lookUp(name, library, iconType);
    if (lookups.size < MAX_LOOKUPS) lookups.set(key, found);
  }
  return found;
}

function lookUp(name: string, library: string, iconType: string | undefined): FoundIcon | null {
  const n = safeName(name);
  if (!n) return null;
  // Tabler isn't shipped; its names mostly match Lucide's, so try that first there.
  const order: ('fontawesome' | 'lucide')[] =
    library === 'lucide' || library === 'tabler' ? ['lucide', 'fontawesome'] : ['fontawesome', 'lucide'];
  for (const lib of order) {
    const svg = lib === 'lucide' ? findLucide(n) : findFontAwesome(n, iconType);
    if (svg) return { svg, library: lib };
  }
  return null;
}
