import { createGenerator, type UnoGenerator } from '@unocss/core';
import presetWind3 from '@unocss/preset-wind3';

/** The site's brand colours, which Mintlify's Tailwind names `primary`, `primary-light`, `primary-dark`. */
export interface BrandColors {
  primary: string;
  light?: string;
  dark?: string;
}

/** The utility stylesheet's one name in every export, for the same reason as SEARCH_INDEX_FILE's. */
export const UTILITIES_FILE = '_assets/utilities.css';

const generators = new Map<string, Promise<UnoGenerator>>();

/**
 * The Tailwind-compatible engine for one set of brand colours, created once per process and
 * colour set. Utilities are scoped under `.enclave-content` so they outrank the theme's element
 * rules (`.enclave-content img`) the way they outrank Tailwind's preflight on the hosted site,
 * and `dark:` keys on the theme's own switch (`<html data-theme="dark">`, set by
 * theme-init.js), not on the OS preference. Colours are the config's hex values, not CSS
 * variables, so opacity modifiers (`bg-primary/10`) work.
 */
function utilityEngine(colors: BrandColors): Promise<UnoGenerator> {
  const primary = { DEFAULT: colors.primary, light: colors.light ?? colors.primary, dark: colors.dark ?? colors.primary };
  const key = JSON.stringify(primary);
  let generator = generators.get(key);
  if (!generator) {
    generator = createGenerator({
      presets: [
        presetWind3({
          dark: { dark: '[data-theme="dark"]', light: '[data-theme="light"]' },
          preflight: 'on-demand',
          important: '.enclave-content',
        }),
      ],
      theme: { colors: { primary } },
    });
    generators.set(key, generator);
  }
  return generator;
}

/**
 * Hosted Tailwind resets every border to `0 solid`, so a bare `border` class draws a 1px line;
 * without that reset the browser's `border-style: none` hides it. Zero specificity, so any
 * utility (`border-dashed`, `border-2`) still wins.
 */
const BORDER_RESET = ':where(.enclave-content [class*="border"]){border-style:solid;border-width:0}';

/**
 * What hosted Tailwind's preflight gives a `not-prose` subtree once the theme's prose rules skip
 * it (theme.css): no margins, bare lists and links, headings in the surrounding type. The rest of
 * the page keeps the browser's and the theme's typography, as `.prose` does on the hosted site.
 * Zero specificity, so utilities on the same elements still win.
 */
const NOT_PROSE_PREFLIGHT = [
  ':where(.not-prose,.not-prose *):where(h1,h2,h3,h4,h5,h6,p,blockquote,figure,dl,dd,pre,hr,ul,ol,menu){margin:0}',
  ':where(.not-prose,.not-prose *):where(h1,h2,h3,h4,h5,h6){font-size:inherit;font-weight:inherit}',
  ':where(.not-prose,.not-prose *):where(ul,ol,menu){list-style:none;padding:0}',
  ':where(.not-prose,.not-prose *):where(a){color:inherit;text-decoration:inherit}',
  ':where(.not-prose,.not-prose *):where(table){border-collapse:collapse;text-indent:0;border-color:inherit}',
  ':where(.not-prose,.not-prose *):where(blockquote,pre,hr,th,td){border:0 solid;padding:0}',
].join('\n');

/**
 * Generates exactly the utility CSS for the given class names (the ones the exported pages
 * use); names that are not utilities produce nothing. Returns '' when none is a utility.
 */
export async function buildUtilityCss(classes: Iterable<string>, colors: BrandColors): Promise<{ css: string; matched: string[] }> {
  const names = new Set(classes);
  if (names.size === 0) return { css: '', matched: [] };
  const notProse = names.delete('not-prose') ? `${NOT_PROSE_PREFLIGHT}\n` : '';
  const uno = await utilityEngine(colors);
  const result = await uno.generate(names, { preflights: true, minify: true });
  if (result.matched.size === 0 && !notProse) return { css: '', matched: [] };
  const matched = [...result.matched, ...(notProse ? ['not-prose'] : [])].sort();
  const border = matched.some((n) => /(?:^|:)border/.test(n)) ? `${BORDER_RESET}\n` : '';
  return { css: `${notProse}${border}${result.css}\n`, matched };
}
